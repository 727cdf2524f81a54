/** The chain-specific `xchain` namespace (docs/rpc.md §4.6, rskj's `rsk_*` of docs/protocol/json-rpc.md §2). */
import {toData} from "@xchain/utils";
import {formatRawHeader} from "../format/header.ts";
import type {RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {blockNumberOrTag} from "../params/blockRef.ts";
import {hash} from "../params/hex.ts";
import {method, param} from "../params/method.ts";
import {findHeader} from "../resolve/blocks.ts";
import {PROTOCOL_VERSION} from "./eth/chainInfo.ts";
import {receiptNodesMethod} from "./receiptNodes.ts";
import {getStorageBytesAt} from "./xchainStorage.ts";

/** xchain_* methods. */
export function xchainMethods({
  chain,
  pendingBlock,
  options,
  forkNativeStorage,
}: Pick<ModuleDeps, "chain" | "pendingBlock" | "options" | "forkNativeStorage">): Record<string, RpcMethod> {
  return {
    /** Handler for `xchain_protocolVersion` */
    protocolVersion: method([], () => PROTOCOL_VERSION),
    /** Handler for `xchain_getRawBlockHeaderByHash`: the header's encoding for hashing (keccak-256 of it is the hash) */
    getRawBlockHeaderByHash: method([param("blockHash", hash)], async (h) => {
      const header = await chain.getHeader(h);
      return header ? formatRawHeader(header) : null;
    }),
    /** Handler for `xchain_getRawBlockHeaderByNumber` */
    getRawBlockHeaderByNumber: method([param("block", blockNumberOrTag)], async (ref) => {
      const header = await findHeader(chain, ref, options, pendingBlock);
      return header ? formatRawHeader(header) : null;
    }),
    /** Handler for `xchain_getRawTransactionReceiptByHash`: the 6-field receipt of a canonical transaction */
    getRawTransactionReceiptByHash: method([param("transactionHash", hash)], async (txHash) => {
      const location = await chain.getTransactionLocation(txHash);
      const receipt = location && (await chain.getReceipts(location.blockHash))?.[location.index];
      return receipt ? toData(receipt.encode()) : null;
    }),
    getTransactionReceiptNodesByHash: receiptNodesMethod(chain),
    getStorageBytesAt: getStorageBytesAt({chain, pendingBlock, options, forkNativeStorage}),
  };
}
