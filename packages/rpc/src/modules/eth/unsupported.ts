/** eth_* methods registered as unsupported (docs/rpc.md §4.7), each with its reason. */
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import {unsupportedMethods} from "../unsupported.ts";

/** eth_getCompilers and eth_compile*, eth_bridgeState. */
export function ethUnsupportedMethods(): Record<string, RpcMethod> {
  return {
    ...unsupportedMethods(
      ["getCompilers", "compileLLL", "compileSolidity", "compileSerpent"],
      "compilers are not included in the node",
    ),
    ...unsupportedMethods(["bridgeState"], "xchain has no Bridge (PowPeg) contract"),
  };
}
