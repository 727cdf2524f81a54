/** A Bridge call's context over an in-memory state with the Bridge's genesis balance, for the unit tests. */
import {MerkleStateManager} from "@ethereumjs/statemanager";
import {Account, Address} from "@ethereumjs/util";
import {BRIDGE_ADDRESS, BRIDGE_GENESIS_BALANCE, type Chainspec, getChainspec, regtestBridge} from "@xchain/chainspec";
import {bytesStorage} from "@xchain/state";
import {NO_CHAIN_HEADERS} from "@xchain/test-utils";
import {BridgeStorage} from "../../../src/native/bridge/storage.ts";
import type {NativeCallContext} from "../../../src/native/dispatch/types.ts";

export const SENDER = Uint8Array.from({length: 20}, (_, i) => i + 1);

export async function bridgeState(): Promise<MerkleStateManager> {
  const state = new MerkleStateManager();
  await state.putAccount(new Address(BRIDGE_ADDRESS), new Account(0n, BRIDGE_GENESIS_BALANCE));
  return state;
}

/** The Bridge's storage read and written through `state`'s storage of the Bridge's account. */
export function bridgeStorageOf(state: MerkleStateManager): BridgeStorage {
  return new BridgeStorage(
    bytesStorage({
      get: async (slot) => {
        const value = await state.getStorage(new Address(BRIDGE_ADDRESS), slot);
        const word = new Uint8Array(32);
        word.set(value, 32 - value.length);
        return word;
      },
      put: (slot, word) => state.putStorage(new Address(BRIDGE_ADDRESS), slot, word),
    }),
    regtestBridge,
  );
}

export async function balanceOf(state: MerkleStateManager, address: Uint8Array): Promise<bigint> {
  return (await state.getAccount(new Address(address)))?.balance ?? 0n;
}

/** An eth_call from `SENDER` at block 1 of regtest unless `overrides` say otherwise. */
export function bridgeContext(
  state: MerkleStateManager,
  overrides: Partial<NativeCallContext> = {},
  chainspec: Chainspec = getChainspec("regtest"),
): NativeCallContext {
  return {
    address: BRIDGE_ADDRESS,
    sender: SENDER,
    origin: SENDER,
    value: 0n,
    callType: "TRANSACTION",
    isStatic: false,
    depth: 0,
    localCall: true,
    transactionHash: undefined,
    block: {
      number: 1,
      timestamp: 1,
      coinbase: new Uint8Array(20),
      difficulty: 1n,
      gasLimit: 6_800_000n,
      minimumGasPrice: 0n,
    },
    // The Bridge reads nothing of the chain.
    chain: {blockHash: async () => undefined, remasc: undefined, headers: NO_CHAIN_HEADERS},
    chainspec,
    state,
    ...overrides,
  };
}
