/**
 * Merged-mining work served to external miners and their submissions by result
 * (docs/operations.md), counted from the miner's events. The built-in miner's own blocks are
 * counted by the chain's import metrics.
 */
import type {MinerEvents, SubmissionEvent} from "@xchain/miner";
import type {EventListeners} from "@xchain/utils";
import {Counter, type Registry} from "prom-client";

/** Creates the mining metrics in `registry`; the returned listeners update them. */
export function createMiningMetrics(registry: Registry): EventListeners<MinerEvents> {
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
  return {
    workServed: () => work.inc(),
    submission: (event) => submissions.inc({result: resultLabel(event)}),
  };
}

/**
 * The `result` label: eth_submitWork answers a boolean, so ACCEPTED or REJECTED; an mnr_* submission
 * its import result or the `MinerError` code; a fault of the node "error".
 */
function resultLabel({method, outcome}: SubmissionEvent): string {
  if (outcome.kind === "failed") return "error";
  if (method === "eth_submitWork") return outcome.kind === "imported" ? "ACCEPTED" : "REJECTED";
  return outcome.kind === "imported" ? outcome.result.importResult : (outcome.error?.code ?? "error");
}
