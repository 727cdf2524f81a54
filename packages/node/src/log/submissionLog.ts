/** Merged-mining submissions (`mnr_submitBitcoinBlock*`) and their result, at info, from the miner's events. */
import type {MinerEvents} from "@xchain/miner";
import type {EventListeners, Logger} from "@xchain/utils";
import {shortHash} from "./format.ts";

/**
 * The listener that logs each `mnr_submitBitcoinBlock*` submission's result: the block and its
 * import result, or why it was refused. (The miner logs eth_submitWork's refusals itself, with the
 * pow hash they name.)
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
      const reason =
        outcome.kind === "refused" ? outcome.reason : error instanceof Error ? error.message : String(error);
      logger.info({method, err: error}, `${method} refused: ${reason}`);
    },
  };
}
