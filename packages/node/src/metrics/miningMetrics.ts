/**
 * Merged-mining work served to external miners and their submissions by result
 * (docs/operations.md): the miner the RPC server is given, with its work and submit methods
 * counted. The built-in miner's own blocks are counted by the chain's import metrics.
 */
import {type MinerApi, MinerError, type SubmitBlockResult} from "@xchain/miner";
import {Counter, type Registry} from "prom-client";

const SUBMIT_METHODS = new Set<PropertyKey>([
  "submitBitcoinBlock",
  "submitBitcoinBlockTransactions",
  "submitBitcoinBlockPartialMerkle",
]);
const WORK_METHODS = new Set<PropertyKey>(["getWork", "getEthWork"]);

/** Creates the mining metrics in `registry`; the returned function wraps a miner so that they count. */
export function createMiningMetrics(registry: Registry): (miner: MinerApi) => MinerApi {
  const work = new Counter({
    name: "xchain_mm_work_served_total",
    help: "Merged-mining work packages served (mnr_getWork, eth_getWork)",
    registers: [registry],
  });
  const submissions = new Counter({
    name: "xchain_mm_submissions_total",
    help: "Merged-mining submissions (mnr_submit*, eth_submitWork) by result: the import result, or the miner error code",
    labelNames: ["result"] as const,
    registers: [registry],
  });
  const failed = (error: unknown): never => {
    submissions.inc({result: error instanceof MinerError ? error.code : "error"});
    throw error;
  };
  // A proxy keeps every other method of the miner as it is, `this` included.
  return (miner) =>
    new Proxy(miner, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== "function") return value;
        if (WORK_METHODS.has(property)) {
          return async (...args: unknown[]) => {
            const served = await value.apply(target, args);
            work.inc();
            return served;
          };
        }
        if (SUBMIT_METHODS.has(property)) {
          return (...args: unknown[]) =>
            (value.apply(target, args) as Promise<SubmitBlockResult>).then((result) => {
              submissions.inc({result: result.importResult});
              return result;
            }, failed);
        }
        if (property === "submitEthWork") {
          return (...args: unknown[]) =>
            (value.apply(target, args) as Promise<boolean>).then((accepted) => {
              submissions.inc({result: accepted ? "ACCEPTED" : "REJECTED"});
              return accepted;
            }, failed);
        }
        return value.bind(target);
      },
    });
}
