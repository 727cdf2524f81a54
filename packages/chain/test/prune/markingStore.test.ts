/**
 * The marking view's watch (docs/operations.md §12): a sweep step deletes what its scan found unmarked
 * less what the chain stored since the scan began, which the watch records once each batch is written.
 */
import {Bucket, WriteBatch} from "@xchain/db";
import {isMarkOf, StateMark, sweepDeletes, sweepScan} from "@xchain/state";
import {bytesToHex} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {MarkingStore} from "../../src/prune/markingStore.ts";
import {cleanup, openTempStore} from "../helpers.ts";

afterEach(cleanup);

const KEY = Uint8Array.from({length: 32}, (_, i) => i);
const GARBAGE = Uint8Array.from({length: 32}, (_, i) => 255 - i);

describe("MarkingStore", () => {
  it("keeps an entry a block stores again between a sweep step's scan and its deletes", async () => {
    const inner = await openTempStore();
    const view = new MarkingStore(inner, () => 3);
    await inner.write(
      new WriteBatch().put(Bucket.stateTrie, KEY, Uint8Array.of(1)).put(Bucket.stateTrie, GARBAGE, Uint8Array.of(2)),
    );
    const watch = view.watchStateWrites();
    const scan = await sweepScan(inner, undefined, 10, 3);
    expect(scan.unmarked).toHaveLength(2);
    // The block's batch, through the chain's view: it stores KEY again, and marks it.
    await view.write(new WriteBatch().put(Bucket.stateTrie, KEY, Uint8Array.of(1)).put(Bucket.header, KEY, KEY));
    expect([...watch.stored]).toEqual([bytesToHex(KEY)]);
    expect(isMarkOf(await inner.get(Bucket.stateMark, KEY), 3, StateMark.KEPT)).toBe(true);
    const step = sweepDeletes(scan, watch.stored);
    watch.close();
    await inner.write(step.batch);
    expect(step.deleted).toBe(1);
    expect(await inner.get(Bucket.stateTrie, KEY)).toEqual(Uint8Array.of(1));
    expect(await inner.get(Bucket.stateTrie, GARBAGE)).toBeUndefined();
  });

  it("records a batch that lands after the watch began though it was written before, and nothing once closed", async () => {
    const view = new MarkingStore(await openTempStore(), () => 0);
    // A write under way when the watch opens may land after a scan that follows reads the marks.
    const landing = view.write(new WriteBatch().put(Bucket.stateTrie, KEY, Uint8Array.of(1)));
    const watch = view.watchStateWrites();
    await landing;
    expect(watch.stored.has(bytesToHex(KEY))).toBe(true);
    watch.close();
    await view.write(new WriteBatch().put(Bucket.stateTrie, GARBAGE, Uint8Array.of(2)));
    expect(watch.stored.has(bytesToHex(GARBAGE))).toBe(false);
  });

  it("marks nothing while no collection marks", async () => {
    const inner = await openTempStore();
    await new MarkingStore(inner, () => undefined).write(new WriteBatch().put(Bucket.stateTrie, KEY, Uint8Array.of(1)));
    expect(await inner.get(Bucket.stateMark, KEY)).toBeUndefined();
  });
});
