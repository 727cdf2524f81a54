/** Merged-mining submissions (`mnr_submitBitcoinBlock*`) and their result, from the miner's events. */
import type {MinerEvents} from "@xchain/miner";
import {type EventListeners, type Logger, NodeError} from "@xchain/utils";
import {shortHash} from "./format.ts";

/**
 * The listener that logs each `mnr_submitBitcoinBlock*` submission's result: the block and its
 * import result, or why it was refused. (The miner logs eth_submitWork's refusals itself, with the
 * pow hash they name.) Each is one line without a stack: a refusal (stale work, the submission rate
 * limit, a solution above the target) is the miner's answer, expected in a miner's day, and logged
 * at info with its code and metadata; a fault of the node is a warning (an unexpected error's stack is
 * in the RPC error mapping's `rpc method failed` line, docs/operations.md §4).
 */
export function submissionLog(logger: Logger): EventListeners<MinerEvents> {
  return {
    submission({method, outcome}) {
      if (method === "eth_submitWork") return;
      if (outcome.kind === "imported") {
        const {result} = outcome;
        logger.info(
          {method, result: result.importResult, number: result.blockIncludedHeight},
          `${method}: block ${result.blockIncludedHeight} ${shortHash(result.blockHash)} ${result.importResult}`,
        );
        return;
      }
      const {error} = outcome;
      const fields = {...(error instanceof NodeError ? error.type : {}), method};
      if (outcome.kind === "refused") {
        logger.info(fields, `${method} refused: ${outcome.reason}`);
        return;
      }
      logger.warn(fields, `${method} failed: ${error instanceof Error ? error.message : String(error)}`);
    },
  };
}
