/**
 * The precompiles at the RSK native addresses of one EVM (docs/protocol/native-contracts.md §2, docs/forking.md §6):
 * every contract runs behind the adapter, but on a forked chain one that holds the upstream's state (the Bridge)
 * stops the message instead.
 */
import type {CustomPrecompile} from "@ethereumjs/evm";
import {unavailableNativeContract} from "../../precompiles/unavailable.ts";
import {NATIVE_CONTRACT_IMPLEMENTATIONS} from "../registry.ts";
import {type NativeHost, nativePrecompile} from "./adapter.ts";

const HOLDS_STATE = "it runs on the upstream's native-contract storage, which xchain does not hold";

/** The `customPrecompiles` entries of the native contracts for an EVM of `host`, `forked` or not. */
export function nativeContractPrecompiles(host: NativeHost, forked: boolean): CustomPrecompile[] {
  return NATIVE_CONTRACT_IMPLEMENTATIONS.map((contract) =>
    !forked || contract.runsOnFork
      ? nativePrecompile(contract, host)
      : unavailableNativeContract(contract.address, contract.name, HOLDS_STATE),
  );
}
