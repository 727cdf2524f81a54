/** eth_* methods registered as unsupported (docs/rpc.md §4.7), each with its reason. */
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import {unsupportedMethods} from "../unsupported.ts";

/** Why `eth_getCompilers` and `eth_compile*` are not served (docs/rpc.md §4.7). */
export const COMPILE_REASON =
  "the node has no built-in compiler (no Solidity, LLL or Serpent): compile with solc or your development framework and send the bytecode";

/** Why `eth_bridgeState` is not served (docs/rpc.md §4.7). */
export const BRIDGE_STATE_REASON =
  "xchain does not implement the Bridge (PowPeg) contract, so there is no Bitcoin peg state to report";

/** eth_getCompilers and eth_compile*, eth_bridgeState. */
export function ethUnsupportedMethods(): Record<string, RpcMethod> {
  return {
    ...unsupportedMethods(["getCompilers", "compileLLL", "compileSolidity", "compileSerpent"], COMPILE_REASON),
    ...unsupportedMethods(["bridgeState"], BRIDGE_STATE_REASON),
  };
}
