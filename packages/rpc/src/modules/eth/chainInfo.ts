/** eth_* identity and head methods (docs/rpc.md §4.2). */
import {toQuantity} from "@xchain/utils";
import {formatSyncStatus} from "../../format/syncStatus.ts";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {method} from "../../params/method.ts";

/** The highest "rsk" capability version, 62 (docs/protocol/networks.md §1: what rskj returns, not the doc's "62"). */
export const PROTOCOL_VERSION = "0x3e";

/** eth_chainId, eth_protocolVersion, eth_syncing, eth_gasPrice, eth_blockNumber. */
export function ethChainInfoMethods({
  chainspec,
  chain,
  sync,
}: Pick<ModuleDeps, "chainspec" | "chain" | "sync">): Record<string, RpcMethod> {
  return {
    /** Handler for `eth_chainId` */
    chainId: method([], () => toQuantity(chainspec.params.chainId)),
    /** Handler for `eth_protocolVersion` */
    protocolVersion: method([], () => PROTOCOL_VERSION),
    /** Handler for `eth_syncing` (docs/rpc.md §2.8) */
    syncing: method([], () => formatSyncStatus(sync.syncStatus())),
    /** Handler for `eth_gasPrice` */
    gasPrice: method([], () => toQuantity(suggestedGasPrice(chain.head().header.minimumGasPrice))),
    /** Handler for `eth_blockNumber` */
    blockNumber: method([], () => toQuantity(chain.head().number)),
  };
}

/**
 * `eth_gasPrice`'s answer: the best block's minimumGasPrice × 1.1 (docs/protocol/transactions.md, rskj
 * `rpc.gasPriceMultiplier`).
 */
export function suggestedGasPrice(minimumGasPrice: bigint): bigint {
  return (minimumGasPrice * 11n) / 10n;
}
