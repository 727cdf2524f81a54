/**
 * `xchain_getStorageBytesAt` (docs/rpc.md §4.6, docs/protocol/json-rpc.md §2): a slot's value as
 * the state stores it, a restricted method off on mainnet and testnet by default.
 */
import {toData} from "@xchain/utils";
import type {RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {blockRef} from "../params/blockRef.ts";
import {address, word} from "../params/hex.ts";
import {method, param} from "../params/method.ts";
import {stateAt} from "../resolve/blocks.ts";

/**
 * Handler for `xchain_getStorageBytesAt`: EVM words are stored without leading zeros, so the
 * stored bytes are the word stripped of them (slot value 1 is `"0x01"`); `"0x0"` when absent, as
 * rskj answers. Slots are words: xchain has no native contract keeping longer keys.
 */
export function getStorageBytesAt({
  chain,
  pendingBlock,
  options,
}: Pick<ModuleDeps, "chain" | "pendingBlock" | "options">): RpcMethod {
  return method(
    [param("address", address), param("key", word), param("block", blockRef)],
    async (account, slot, block) => {
      const value = await (await stateAt(chain, block, options, pendingBlock)).getStorage(account, slot);
      const start = value.findIndex((b) => b !== 0);
      return start === -1 ? "0x0" : toData(value.subarray(start));
    },
  );
}
