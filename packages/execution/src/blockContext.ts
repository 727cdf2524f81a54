import type {BlockHeader} from "@xchain/primitives";
import type {ExecutionBlockContext} from "./types.ts";

/**
 * The execution context of the block `header` heads: what its transactions (block import) or a
 * call at it (eth_call, as geth does) see of the block. The EVM view of it is `evmBlock`.
 */
export function blockContextOf(
  header: Pick<BlockHeader, "number" | "timestamp" | "coinbase" | "difficulty" | "gasLimit" | "minimumGasPrice">,
): ExecutionBlockContext {
  return {
    number: header.number,
    timestamp: header.timestamp,
    coinbase: header.coinbase,
    difficulty: header.difficulty,
    gasLimit: header.gasLimit,
    minimumGasPrice: header.minimumGasPrice,
  };
}
