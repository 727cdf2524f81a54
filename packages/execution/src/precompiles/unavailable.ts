/**
 * Fork mode's stop at an RSK native contract the fork cannot run (docs/forking.md §6): the Bridge holds
 * the upstream's state, which nothing here reads, and a contract xchain does not implement
 * cannot be asked of the upstream. `NativeContractUnavailableError` stops the message that reaches it,
 * and no EVM frame catches it (the EVM rethrows any error that is not its own), so a direct call, an
 * internal call at any depth, an estimate's trial run and a transaction in block assembly all end with
 * it instead of an empty success.
 */
import type {CustomPrecompile} from "@ethereumjs/evm";
import {bytesToPrefixedHex} from "@xchain/utils";
import {NativeContractErrorCode, NativeContractUnavailableError} from "../errors.ts";

/** The error of a message that reached the native contract `name` at `address` (20 bytes) on a fork, and why. */
export function nativeContractUnavailable(
  address: Uint8Array,
  name: string,
  reason: string,
): NativeContractUnavailableError {
  const hex = bytesToPrefixedHex(address);
  return new NativeContractUnavailableError(
    {code: NativeContractErrorCode.UNAVAILABLE, address: hex, name},
    `the native contract ${name} (${hex}) cannot be executed in fork mode: ${reason}`,
  );
}

/** A precompile at the native contract `name`'s `address` that stops every message reaching it, saying `reason`. */
export function unavailableNativeContract(address: Uint8Array, name: string, reason: string): CustomPrecompile {
  return {
    address: bytesToPrefixedHex(address) as `0x${string}`,
    function: () => {
      throw nativeContractUnavailable(address, name, reason);
    },
  };
}
