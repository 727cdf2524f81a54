/**
 * The sweep and clear phases of a state collection (docs/operations.md §12), one bounded step at a
 * time: each step reads a range of keys and returns the deletes for the caller's batch (with the
 * collection's progress record, so that a crash between steps resumes at the next one). A sweep step
 * must not interleave with a write that stores state: the caller runs it where block imports and
 * state edits run, one at a time.
 */
import {Bucket, type KeyValueStore, WriteBatch} from "@xchain/db";
import {bytesToHex} from "@xchain/utils";
import {keyAfter} from "./marks.ts";

/** One step's outcome: its deletes, and where the next step starts (undefined: the phase is done). */
export interface CollectionStep {
  batch: WriteBatch;
  scanned: number;
  deleted: number;
  /** The last key this step scanned: the next step starts after it. */
  last: Uint8Array | undefined;
}

/**
 * Up to `limit` `stateTrie` entries after `after` (from the start without it): those without a mark
 * are deleted. The marks of the same key range are read in one range read (both buckets sort alike).
 */
export async function sweepStep(
  store: KeyValueStore,
  after: Uint8Array | undefined,
  limit: number,
): Promise<CollectionStep> {
  const keys: Uint8Array[] = [];
  const range = after === undefined ? {limit} : {gte: keyAfter(after), limit};
  for await (const [key] of store.entries(Bucket.stateTrie, range)) keys.push(key);
  const batch = new WriteBatch();
  const first = keys[0];
  const last = keys.at(-1);
  if (first === undefined || last === undefined) return {batch, scanned: 0, deleted: 0, last: undefined};
  const marked = new Set<string>();
  for await (const [key] of store.entries(Bucket.stateMark, {gte: first, lt: keyAfter(last)}))
    marked.add(bytesToHex(key));
  for (const key of keys) if (!marked.has(bytesToHex(key))) batch.del(Bucket.stateTrie, key);
  return {batch, scanned: keys.length, deleted: batch.size, last: keys.length < limit ? undefined : last};
}

/** Deletes up to `limit` marks (the clear phase, after the sweep); `last` undefined once none is left. */
export async function clearMarksStep(store: KeyValueStore, limit: number): Promise<CollectionStep> {
  const batch = new WriteBatch();
  let last: Uint8Array | undefined;
  for await (const [key] of store.entries(Bucket.stateMark, {limit})) {
    batch.del(Bucket.stateMark, key);
    last = key;
  }
  return {batch, scanned: batch.size, deleted: batch.size, last: batch.size < limit ? undefined : last};
}
