/** Block imports, refusals and reorganizations, counted from the chain's events (docs/operations.md). */
import {type ChainEvents, ImportResultKind} from "@xchain/chain";
import type {EventListeners} from "@xchain/utils";
import {Counter, Histogram, type Registry} from "prom-client";

/** Import time buckets, in seconds. */
const IMPORT_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Reorganization depth buckets, in blocks left the canonical chain. */
const REORG_BUCKETS = [1, 2, 3, 5, 10, 20, 50, 100, 1000];

/** Creates the chain metrics in `registry`; the returned listeners update them. */
export function createChainMetrics(registry: Registry): EventListeners<ChainEvents> {
  const registers = [registry];
  const imports = new Counter({
    name: "xchain_blocks_imported_total",
    help: "Blocks imported (best or not), from peers, the miner and RPC",
    registers,
  });
  const importTime = new Histogram({
    name: "xchain_block_import_duration_seconds",
    help: "Time to validate, execute and store an imported block",
    buckets: IMPORT_BUCKETS,
    registers,
  });
  const reorgs = new Counter({
    name: "xchain_reorgs_total",
    help: "Reorganizations: new heads that took blocks off the canonical chain",
    registers,
  });
  const reorgDepth = new Histogram({
    name: "xchain_reorg_depth_blocks",
    help: "Blocks a reorganization took off the canonical chain",
    buckets: REORG_BUCKETS,
    registers,
  });
  const refused = new Counter({
    name: "xchain_blocks_refused_total",
    help: "Blocks the chain refused, by result: INVALID_BLOCK, or PARENT_STATE_PRUNED (a branch forking below the states kept)",
    labelNames: ["result"] as const,
    registers,
  });
  return {
    import({result, durationMs}) {
      if (result.kind === ImportResultKind.INVALID_BLOCK || result.kind === ImportResultKind.PARENT_STATE_PRUNED) {
        refused.inc({result: result.kind});
        return;
      }
      if (result.kind !== ImportResultKind.IMPORTED_BEST && result.kind !== ImportResultKind.IMPORTED_NOT_BEST) return;
      imports.inc();
      importTime.observe(durationMs / 1000);
    },
    newHead({removed}) {
      if (removed.length === 0) return;
      reorgs.inc();
      reorgDepth.observe(removed.length);
    },
  };
}
