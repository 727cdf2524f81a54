/** A native contract's call context for unit tests of a contract's methods (no EVM around them). */
import type {StateManagerInterface} from "@ethereumjs/common";
import {getChainspec} from "@xchain/chainspec";
import {NO_CHAIN_HEADERS} from "@xchain/test-utils";
import type {NativeCallContext} from "../../src/native/dispatch/types.ts";

/** A context of a transaction's direct call at block 10 of regtest, `overrides` applied. */
export function nativeContext(overrides: Partial<NativeCallContext> = {}): NativeCallContext {
  return {
    address: new Uint8Array(20),
    sender: new Uint8Array(20).fill(0xaa),
    origin: new Uint8Array(20).fill(0xaa),
    value: 0n,
    callType: "TRANSACTION",
    isStatic: false,
    depth: 0,
    localCall: false,
    transactionHash: undefined,
    block: {
      number: 10,
      timestamp: 1_700_000_010,
      coinbase: new Uint8Array(20),
      difficulty: 1n,
      gasLimit: 6_800_000n,
      minimumGasPrice: 0n,
    },
    chain: {blockHash: async () => undefined, remasc: undefined, headers: NO_CHAIN_HEADERS},
    chainspec: getChainspec("regtest"),
    // The contracts under test read no state.
    state: {} as StateManagerInterface,
    ...overrides,
  };
}
