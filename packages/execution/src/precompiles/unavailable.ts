/**
 * Fork mode's precompiles at the RSK native contracts' addresses (docs/forking.md §6): each one stops the
 * message that reaches it with `NativeContractUnavailableError`, which no EVM frame catches (the EVM
 * rethrows any error that is not its own), so a direct call, an internal call at any depth, an estimate's
 * trial run and a transaction in block assembly all end with it instead of an empty success.
 */
import type {CustomPrecompile} from "@ethereumjs/evm";
import {bytesToHex} from "@xchain/utils";
import {NativeContractErrorCode, NativeContractUnavailableError} from "../errors.ts";
import {NATIVE_CONTRACTS} from "./addresses.ts";

/** One throwing precompile per native contract (`customPrecompiles` entries). */
export function unavailableNativeContracts(): CustomPrecompile[] {
  return NATIVE_CONTRACTS.map(({address, name}) => {
    const hex: `0x${string}` = `0x${bytesToHex(address)}`;
    return {
      address: hex,
      function: () => {
        throw new NativeContractUnavailableError(
          {code: NativeContractErrorCode.UNAVAILABLE, address: hex, name},
          `the native contract ${name} (${hex}) cannot be executed in fork mode: xchain does not implement ` +
            "Rootstock's native contracts and cannot ask the upstream to run them",
        );
      },
    };
  });
}
