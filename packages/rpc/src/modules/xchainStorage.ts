/**
 * `xchain_getStorageBytesAt` (docs/rpc.md §4.6, docs/protocol/json-rpc.md §2): a slot's value as
 * the state stores it, a restricted method off on mainnet and testnet by default.
 */
import {nativeContractName, readOnlyBytesStorage} from "@xchain/execution";
import {REMASC_ADDRESS} from "@xchain/primitives";
import {storesByteStrings} from "@xchain/state";
import {equalBytes, toData} from "@xchain/utils";
import type {RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {blockRef} from "../params/blockRef.ts";
import {address, word} from "../params/hex.ts";
import {method, param} from "../params/method.ts";
import {requireHeader, stateAt} from "../resolve/blocks.ts";

/** Stored bytes as rskj answers them: `"0x0"` for none. */
const stored = (bytes: Uint8Array): string => (bytes.length === 0 ? "0x0" : toData(bytes));

/**
 * Handler for `xchain_getStorageBytesAt`: EVM words are stored without leading zeros, so the
 * stored bytes are the word stripped of them (slot value 1 is `"0x01"`); `"0x0"` when absent, as
 * rskj answers. The key is `0x` and 1 to 64 hex digits, left-padded to a word as rskj pads it (so a
 * Bridge key's ASCII, `0x626c…` for "blockStoreChainHead", names its slot). On a fork, a native
 * contract's storage is the upstream's at the fork block (`forkNativeStorage`: raw bytes, which on
 * rskj may be longer than a word); nothing local changes it, since no native contract runs locally. REMASC's
 * is the exception: the fork's own REMASC transactions write it (docs/protocol/native-contracts.md §11.4), so it
 * is read from the fork's state, which reads the upstream's words through the base.
 * Elsewhere the Bridge's values are byte strings spread over words (docs/protocol/native-contracts.md
 * §10.4): the answer is the whole value, as rskj stores it under that key.
 */
export function getStorageBytesAt({
  chain,
  pendingBlock,
  options,
  forkNativeStorage,
}: Pick<ModuleDeps, "chain" | "pendingBlock" | "options" | "forkNativeStorage">): RpcMethod {
  return method(
    [param("address", address), param("key", word), param("block", blockRef)],
    async (account, slot, block) => {
      if (forkNativeStorage && nativeContractName(account) !== undefined && !equalBytes(account, REMASC_ADDRESS)) {
        await requireHeader(chain, block, options, pendingBlock);
        return stored(await forkNativeStorage.storageBytes(account, slot));
      }
      const state = await stateAt(chain, block, options, pendingBlock);
      if (storesByteStrings(account)) {
        const bytes = readOnlyBytesStorage(account, (address, key) => state.getStorage(address, key));
        return stored(await bytes.getBytes(slot));
      }
      const value = await state.getStorage(account, slot);
      const start = value.findIndex((b) => b !== 0);
      return stored(start === -1 ? new Uint8Array(0) : value.subarray(start));
    },
  );
}
