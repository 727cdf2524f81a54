/**
 * The precompiles at the RSK native addresses of one EVM (docs/protocol/native-contracts.md §2, docs/forking.md §6):
 * an implemented contract runs behind the adapter; on a forked chain, an address whose contract is not
 * implemented or cannot run on a fork stops the message instead. Off a fork an unimplemented address
 * stays an ordinary account.
 */
import type {CustomPrecompile} from "@ethereumjs/evm";
import {equalBytes} from "@xchain/utils";
import {NATIVE_CONTRACTS} from "../../precompiles/addresses.ts";
import {unavailableNativeContract} from "../../precompiles/unavailable.ts";
import {NATIVE_CONTRACT_IMPLEMENTATIONS} from "../registry.ts";
import {type NativeHost, nativePrecompile} from "./adapter.ts";

const NOT_IMPLEMENTED = "xchain does not implement it and cannot ask the upstream to run it";
const HOLDS_STATE = "it runs on the upstream's native-contract storage, which xchain does not hold";

/** The `customPrecompiles` entries of the native contracts for an EVM of `host`, `forked` or not. */
export function nativeContractPrecompiles(host: NativeHost, forked: boolean): CustomPrecompile[] {
  const precompiles: CustomPrecompile[] = [];
  for (const {address, name} of NATIVE_CONTRACTS) {
    const contract = NATIVE_CONTRACT_IMPLEMENTATIONS.find((c) => equalBytes(c.address, address));
    if (contract && (!forked || contract.runsOnFork)) precompiles.push(nativePrecompile(contract, host));
    else if (forked)
      precompiles.push(unavailableNativeContract(address, name, contract ? HOLDS_STATE : NOT_IMPLEMENTED));
  }
  return precompiles;
}
