/** Sync runs by how they ended (docs/operations.md §1), counted from the sync manager's events. */
import {SyncError, type SyncEvents} from "@xchain/sync";
import type {EventListeners} from "@xchain/utils";
import {Counter, type Registry} from "prom-client";

/** Creates the sync metrics in `registry`; the returned listeners update them. */
export function createSyncMetrics(registry: Registry): EventListeners<SyncEvents> {
  const runs = new Counter({
    name: "xchain_sync_runs_total",
    help: "Sync runs from one peer by how they ended: caught_up, or the SyncError code (SYNC_FORK_BELOW_RETENTION, ...)",
    labelNames: ["result"] as const,
    registers: [registry],
  });
  return {
    // Any other error is a fault of the node: one label, so that the series stay few.
    runEnded: ({error}) =>
      runs.inc({result: error === undefined ? "caught_up" : error instanceof SyncError ? error.type.code : "error"}),
  };
}
