/** eth_* methods registered as unsupported (docs/rpc.md §4.7), each with its reason. */
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import {unsupportedMethods} from "../unsupported.ts";

/** Why `eth_getCompilers` and `eth_compile*` are not served (docs/rpc.md §4.7). */
export const COMPILE_REASON =
  "the node has no built-in compiler (no Solidity, LLL or Serpent): compile with solc or your development framework and send the bytecode";

/**
 * Why `eth_feeHistory` and `eth_maxPriorityFeePerGas` are not served (docs/rpc.md §4.7): blocks have
 * no base fee, so a client that fills EIP-1559 fees on its own (Foundry's `cast send`) must be told
 * to send legacy transactions; ethers and viem see no `baseFeePerGas` and choose legacy themselves.
 */
export const FEE_MARKET_REASON =
  "xchain has no EIP-1559 fee market (blocks have no baseFeePerGas; the price floor is the block's minimumGasPrice, see eth_gasPrice): " +
  "send legacy transactions: `cast send --legacy` (Foundry), `type: 0` with `gasPrice` (ethers, viem)";

/** eth_getCompilers and eth_compile*, eth_feeHistory and eth_maxPriorityFeePerGas. */
export function ethUnsupportedMethods(): Record<string, RpcMethod> {
  return {
    ...unsupportedMethods(["getCompilers", "compileLLL", "compileSolidity", "compileSerpent"], COMPILE_REASON),
    ...unsupportedMethods(["feeHistory", "maxPriorityFeePerGas"], FEE_MARKET_REASON),
  };
}
