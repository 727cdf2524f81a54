/**
 * The sweep and clear phases of a state collection (docs/operations.md §12), one bounded step at a
 * time: each step reads a range of keys and returns the deletes for the caller's batch (with the
 * collection's progress record, so that a crash between steps resumes at the next one). A sweep step
 * scans its range beside everything else (`sweepScan`); only the check of what it found unmarked and
 * the write of its deletes (`sweepDeletes`) must not interleave with a write that stores state.
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

/** What a sweep step found without holding anything up: the keys that had no mark when read. */
export interface SweepScan {
  unmarked: Uint8Array[];
  scanned: number;
  /** The last key scanned: the next scan starts after it (undefined: the bucket is done). */
  last: Uint8Array | undefined;
}

/**
 * Reads up to `limit` `stateTrie` keys after `after` (from the start without it) and the marks of the
 * same key range (both buckets sort alike): the keys without a mark. Marks are only ever added while a
 * collection sweeps, so a key marked now stays kept; an unmarked one is checked again by `sweepDeletes`.
 */
export async function sweepScan(
  store: KeyValueStore,
  after: Uint8Array | undefined,
  limit: number,
): Promise<SweepScan> {
  const keys: Uint8Array[] = [];
  const range = after === undefined ? {limit} : {gte: keyAfter(after), limit};
  for await (const [key] of store.entries(Bucket.stateTrie, range)) keys.push(key);
  const first = keys[0];
  const last = keys.at(-1);
  if (first === undefined || last === undefined) return {unmarked: [], scanned: 0, last: undefined};
  const marked = new Set<string>();
  for await (const [key] of store.entries(Bucket.stateMark, {gte: first, lt: keyAfter(last)}))
    marked.add(bytesToHex(key));
  const unmarked = keys.filter((key) => !marked.has(bytesToHex(key)));
  return {unmarked, scanned: keys.length, last: keys.length < limit ? undefined : last};
}

/**
 * The deletes of the scanned keys that still have no mark: the part of a sweep step that must not
 * interleave with a write that stores state (the caller runs it where imports and state edits run,
 * one at a time, and writes the batch before the next of them).
 */
export async function sweepDeletes(store: KeyValueStore, scan: SweepScan): Promise<CollectionStep> {
  const marks = await Promise.all(scan.unmarked.map((key) => store.get(Bucket.stateMark, key)));
  const batch = new WriteBatch();
  scan.unmarked.forEach((key, i) => {
    if (marks[i] === undefined) batch.del(Bucket.stateTrie, key);
  });
  return {batch, scanned: scan.scanned, deleted: batch.size, last: scan.last};
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
