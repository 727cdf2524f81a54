/** The oldest state served (docs/operations.md §12): the window, what past collections took, a running collection's cutoff. */
import {Bucket, MemoryStore, WriteBatch} from "@xchain/db";
import {encodeRlp, encodeUnsigned} from "@xchain/primitives";
import {StateError, StateErrorCode} from "@xchain/state";
import {utf8ToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import type {StateMode} from "../../src/options.ts";
import {
  CollectionPhase,
  putRetentionRecord,
  type RetentionRecord,
  readRetentionRecord,
} from "../../src/prune/retentionRecord.ts";
import {StateRetention} from "../../src/prune/stateRetention.ts";

async function retention(mode: StateMode, record: Partial<RetentionRecord>): Promise<StateRetention> {
  const store = new MemoryStore();
  const batch = new WriteBatch();
  putRetentionRecord(batch, {
    phase: CollectionPhase.Idle,
    cutoff: 0,
    prunedBelow: 0,
    cursor: undefined,
    epoch: 0,
    ...record,
  });
  await store.write(batch);
  return StateRetention.load({mode, retainBlocks: 4}, store);
}

describe("the collector's record", () => {
  it("keeps the epoch, and reads a record written before epochs (four fields) as epoch 0", async () => {
    const store = new MemoryStore();
    const record = {phase: CollectionPhase.Sweep, cutoff: 9, prunedBelow: 7, cursor: Uint8Array.of(5), epoch: 300};
    const batch = new WriteBatch();
    putRetentionRecord(batch, record);
    await store.write(batch);
    expect(await readRetentionRecord(store)).toEqual(record);
    const fields = [CollectionPhase.Mark, 9, 7].map((n) => encodeUnsigned(BigInt(n)));
    await store.write(
      new WriteBatch().put(Bucket.meta, utf8ToBytes("stateCollection"), encodeRlp([...fields, Uint8Array.of()])),
    );
    expect(await readRetentionRecord(store)).toEqual({
      phase: CollectionPhase.Mark,
      cutoff: 9,
      prunedBelow: 7,
      cursor: undefined,
      epoch: 0,
    });
    const retention = await StateRetention.load({mode: "pruned", retainBlocks: 4}, store);
    expect(retention.markingEpoch).toBe(0);
  });
});

describe("the oldest state served", () => {
  it("is the window's start in pruned mode, and what a past collection left in archive mode", async () => {
    const pruned = await retention("pruned", {cutoff: 20, prunedBelow: 20});
    expect(pruned.oldestStateBlock(30)).toBe(27);
    expect(pruned.oldestStateBlock(2)).toBe(20);
    const archive = await retention("archive", {cutoff: 20, prunedBelow: 20});
    expect(archive.oldestStateBlock(30)).toBe(20);
    expect((await retention("archive", {})).oldestStateBlock(1000)).toBe(0);
  });

  it("is never below a running collection's cutoff, however far a reorganization moved the head back", async () => {
    const marking = await retention("pruned", {phase: CollectionPhase.Mark, cutoff: 50, prunedBelow: 40});
    expect(marking.marking).toBe(true);
    expect(marking.oldestStateBlock(49)).toBe(50);
    expect(() => marking.requireServed(49, 49)).toThrow(StateError);
    const clearing = await retention("pruned", {phase: CollectionPhase.Clear, cutoff: 50, prunedBelow: 40});
    expect(clearing.marking).toBe(false);
    expect(clearing.markingEpoch).toBeUndefined();
    expect(clearing.oldestStateBlock(43)).toBe(40);
  });

  it("refuses an older block with STATE_PRUNED naming it and the oldest served", async () => {
    const pruned = await retention("pruned", {});
    const error = (() => {
      try {
        pruned.requireServed(5, 100);
      } catch (e) {
        return e as StateError;
      }
    })();
    expect(error?.type).toEqual({code: StateErrorCode.PRUNED, block: 5, oldestBlock: 97});
    expect(error?.message).toContain("state.retainBlocks");
    expect(() => pruned.requireServed(97, 100)).not.toThrow();
  });
});
