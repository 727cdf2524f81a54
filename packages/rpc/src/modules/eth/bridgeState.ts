/**
 * `eth_bridgeState` (docs/rpc.md §4.7, docs/protocol/native-contracts.md §10.11): the Bridge's state at
 * the best block in rskj's shape, `{btcBlockchainBestChainHeight, rskTxsWaitingForSignatures}`, read
 * from the Bridge's storage as `getStateForDebugging` reads it. No parameters. On a fork the Bridge's
 * storage is the upstream's at the fork block (nothing local changes it: the Bridge does not run
 * on a fork, docs/forking.md §6).
 */
import {BRIDGE_ADDRESS} from "@xchain/chainspec";
import {bridgeStateJson, bridgeStorageReader, readOnlyBytesStorage} from "@xchain/execution";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {method} from "../../params/method.ts";

/** Handler for `eth_bridgeState`. */
export function ethBridgeStateMethods({
  chain,
  chainspec,
  forkNativeStorage,
}: Pick<ModuleDeps, "chain" | "chainspec" | "forkNativeStorage">): Record<string, RpcMethod> {
  return {
    bridgeState: method([], async () => {
      const bytes = forkNativeStorage
        ? {
            getBytes: (key: Uint8Array) => forkNativeStorage.storageBytes(BRIDGE_ADDRESS, key),
            putBytes: () => Promise.reject(new Error("read-only storage")),
          }
        : readOnlyBytesStorage(BRIDGE_ADDRESS, await wordsAtHead(chain));
      return bridgeStateJson(bridgeStorageReader(bytes, chainspec.params.bridge));
    }),
  };
}

async function wordsAtHead(chain: ModuleDeps["chain"]) {
  const state = await chain.stateAfter(chain.head().header);
  return (address: Uint8Array, slot: Uint8Array) => state.getStorage(address, slot);
}
