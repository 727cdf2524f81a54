import {Address, bigIntToBytes, setLengthLeft} from "@ethereumjs/util";
import {isPrecompiledAddress} from "../precompiles/addresses.ts";
import type {RunState} from "./types.ts";

const ADDRESS_MASK = (1n << 160n) - 1n;

/** The address in the low 160 bits of a stack word. */
export function stackAddress(word: bigint): Address {
  return new Address(setLengthLeft(bigIntToBytes(word & ADDRESS_MASK), 20));
}

/**
 * rskj's existence test of the new-account charges (docs/protocol/gas.md §4): an account exists when it is in
 * state, empty or not (no EIP-161), and precompiled contracts always exist.
 */
export async function accountExists(runState: RunState, address: Address): Promise<boolean> {
  if (isPrecompiledAddress(address.bytes)) return true;
  return (await runState.stateManager.getAccount(address)) !== undefined;
}
