// Blocks refused, from the chain's import events, and sync runs by how they ended, from the sync
// manager's (docs/operations.md §1): a branch forking below the states kept is counted apart.
import {EventEmitter} from "node:events";
import {BlockError, BlockErrorCode, type ChainEvents, ImportResultKind} from "@xchain/chain";
import {StateError, StateErrorCode} from "@xchain/state";
import {SyncError, SyncErrorCode, type SyncEvents} from "@xchain/sync";
import {subscribe} from "@xchain/utils";
import {Registry} from "prom-client";
import {describe, expect, it} from "vitest";
import {createChainMetrics} from "../../src/metrics/chainMetrics.ts";
import {createSyncMetrics} from "../../src/metrics/syncMetrics.ts";

const hash = new Uint8Array(32);

describe("the refusal metrics", () => {
  it("count refused blocks by import result, and sync runs by their end", async () => {
    const registry = new Registry();
    const chain = new EventEmitter<ChainEvents>();
    const sync = new EventEmitter<SyncEvents>();
    subscribe(chain, createChainMetrics(registry));
    subscribe(sync, createSyncMetrics(registry));

    const pruned = new StateError({code: StateErrorCode.PRUNED, block: 3, oldestBlock: 9}, "pruned");
    const invalid = new BlockError({code: BlockErrorCode.REMASC_MISSING});
    for (const result of [
      {kind: ImportResultKind.PARENT_STATE_PRUNED, hash, number: 4, error: pruned},
      {kind: ImportResultKind.PARENT_STATE_PRUNED, hash, number: 5, error: pruned},
      {kind: ImportResultKind.INVALID_BLOCK, hash, number: 4, error: invalid},
      {kind: ImportResultKind.IMPORTED_BEST, hash, number: 4},
    ] as const) {
      chain.emit("import", {result, durationMs: 1});
    }
    const deep = new SyncError({code: SyncErrorCode.FORK_BELOW_RETENTION, peer: "p", number: 11, oldestBlock: 47});
    sync.emit("runEnded", {peer: "p", imported: 0, error: deep});
    sync.emit("runEnded", {peer: "q", imported: 10});
    sync.emit("runEnded", {peer: "r", imported: 0, error: new Error("io")});

    const text = await registry.metrics();
    expect(text).toContain('xchain_blocks_refused_total{result="PARENT_STATE_PRUNED"} 2\n');
    expect(text).toContain('xchain_blocks_refused_total{result="INVALID_BLOCK"} 1\n');
    expect(text).toContain("xchain_blocks_imported_total 1\n");
    expect(text).toContain('xchain_sync_runs_total{result="SYNC_FORK_BELOW_RETENTION"} 1\n');
    expect(text).toContain('xchain_sync_runs_total{result="caught_up"} 1\n');
    expect(text).toContain('xchain_sync_runs_total{result="error"} 1\n');
  });
});
