/** A Bridge call's context over an in-memory state with the Bridge's genesis balance, for the unit tests. */
import {createRequire} from "node:module";
import {MerkleStateManager} from "@ethereumjs/statemanager";
import {Account, Address} from "@ethereumjs/util";
import {BRIDGE_ADDRESS, BRIDGE_GENESIS_BALANCE, type Chainspec, getChainspec, regtestBridge} from "@xchain/chainspec";
import {bytesStorage} from "@xchain/state";
import {NO_CHAIN_HEADERS} from "@xchain/test-utils";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {Interface} from "ethers";
import {bridgeContract} from "../../../src/native/bridge/contract.ts";
import {BridgeStorage} from "../../../src/native/bridge/storage.ts";
import type {NativeCallContext} from "../../../src/native/dispatch/types.ts";

export const SENDER = Uint8Array.from({length: 20}, (_, i) => i + 1);

export async function bridgeState(): Promise<MerkleStateManager> {
  const state = new MerkleStateManager();
  await state.putAccount(new Address(BRIDGE_ADDRESS), new Account(0n, BRIDGE_GENESIS_BALANCE));
  return state;
}

/** The Bridge account's byte strings (rskj's storage bytes) in `state`. */
function bridgeBytesStorage(state: MerkleStateManager) {
  const bridge = new Address(BRIDGE_ADDRESS);
  return bytesStorage({
    get: async (slot) => {
      const value = await state.getStorage(bridge, slot);
      const word = new Uint8Array(32);
      word.set(value, 32 - value.length);
      return word;
    },
    put: (slot, word) => state.putStorage(bridge, slot, word),
  });
}

/** The Bridge's storage read and written through `state`'s storage of the Bridge's account. */
export function bridgeStorageOf(state: MerkleStateManager): BridgeStorage {
  return new BridgeStorage(bridgeBytesStorage(state), regtestBridge);
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

/** The Bridge's ABI of @rsksmart/rsk-precompiled-abis. */
export const bridgeAbi = new Interface(createRequire(import.meta.url)("@rsksmart/rsk-precompiled-abis").bridge.abi);

/** Runs `name(args)` on the Bridge in `context` and decodes its answer with the abis package. */
export async function runBridge(name: string, args: unknown[], context: NativeCallContext): Promise<unknown[]> {
  const data = hexToBytes(bridgeAbi.encodeFunctionData(name, args).slice(2));
  const {output} = await bridgeContract.run(data, context);
  return [...bridgeAbi.decodeFunctionResult(name, `0x${bytesToHex(output)}`)];
}

/** The byte string the Bridge stores under `key` (what xchain_getStorageBytesAt answers), as hex. */
export async function storedBytes(state: MerkleStateManager, key: Uint8Array): Promise<string> {
  return bytesToHex(await bridgeBytesStorage(state).getBytes(key));
}
