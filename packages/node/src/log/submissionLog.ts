/** Merged-mining submissions (`mnr_submitBitcoinBlock*`) and their result, at info. */
import type {MinerApi, SubmitBlockResult} from "@xchain/miner";
import type {Logger} from "@xchain/utils";
import {shortHash} from "./format.ts";

/**
 * `miner` with its three `mnr_submitBitcoinBlock*` methods logging each submission's result (the
 * block and its import result, or the reason it was refused); every other member is the miner's own.
 */
export function withSubmissionLog(miner: MinerApi, logger: Logger): MinerApi {
  const logged = async (method: string, submit: () => Promise<SubmitBlockResult>): Promise<SubmitBlockResult> => {
    try {
      const result = await submit();
      logger.info(
        {method, result: result.importResult, number: result.blockIncludedHeight},
        `${method}: block ${result.blockIncludedHeight} ${shortHash(result.blockHash)} ${result.importResult}`,
      );
      return result;
    } catch (e) {
      logger.info({method, err: e}, `${method} refused: ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    }
  };
  const wrapped: Pick<
    MinerApi,
    "submitBitcoinBlock" | "submitBitcoinBlockTransactions" | "submitBitcoinBlockPartialMerkle"
  > = {
    submitBitcoinBlock: (block) => logged("mnr_submitBitcoinBlock", () => miner.submitBitcoinBlock(block)),
    submitBitcoinBlockTransactions: (header, coinbase, txids) =>
      logged("mnr_submitBitcoinBlockTransactions", () => miner.submitBitcoinBlockTransactions(header, coinbase, txids)),
    submitBitcoinBlockPartialMerkle: (header, coinbase, branch, txCount) =>
      logged("mnr_submitBitcoinBlockPartialMerkle", () =>
        miner.submitBitcoinBlockPartialMerkle(header, coinbase, branch, txCount),
      ),
  };
  // A proxy rather than a prototype copy: the miner's methods must run with the miner as `this`,
  // so that what they record (e.g. when work was last asked for) lands on the miner itself.
  return new Proxy(miner, {
    get(target, property) {
      if (Object.hasOwn(wrapped, property)) return wrapped[property as keyof typeof wrapped];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
