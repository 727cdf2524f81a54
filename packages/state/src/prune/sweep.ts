/**
 * The sweep and clear phases of a state collection (docs/operations.md §12), one bounded step at a
 * time: each step reads a range of keys and returns the deletes for the caller's batch (with the
 * collection's progress record, so that a crash between steps resumes at the next one). A sweep step
 * scans its range beside everything else (`sweepScan`); only the check of what it found unmarked against
 * what was stored since, and the write of its deletes (`sweepDeletes`), must not interleave with a write
 * that stores state.
 */
import {Bucket, type KeyValueStore, WriteBatch} from "@xchain/db";
import {bytesToHex} from "@xchain/utils";
import {isMarkOf, keyAfter} from "./marks.ts";

/** One step's outcome: its deletes, and where the next step starts (undefined: the phase is done). */
export interface CollectionStep {
  batch: WriteBatch;
  scanned: number;
  /** The entries deleted (marks deleted besides are in `batch` only). */
  deleted: number;
  /** The last key this step scanned: the next step starts after it. */
  last: Uint8Array | undefined;
}

/** What a sweep step found without holding anything up: the keys that had no mark when read. */
export interface SweepScan {
  unmarked: Uint8Array[];
  /** Marks of an older epoch in the scanned range (left by a past collection, or by entries gone since). */
  staleMarks: Uint8Array[];
  scanned: number;
  /** The last key scanned: the next scan starts after it (undefined: the bucket is done). */
  last: Uint8Array | undefined;
}

/**
 * Reads up to `limit` `stateTrie` keys after `after` (from the start without it) and the marks of the
 * same key range (both buckets sort alike; the last step's range runs to the end): the keys without a
 * mark of `epoch`, and the marks of other epochs. Marks are only ever added while a collection sweeps,
 * so a key marked now stays kept; an unmarked one is checked again by `sweepDeletes` against the keys
 * stored since the scan began.
 */
export async function sweepScan(
  store: KeyValueStore,
  after: Uint8Array | undefined,
  limit: number,
  epoch = 0,
): Promise<SweepScan> {
  const keys: Uint8Array[] = [];
  const from = after === undefined ? {} : {gte: keyAfter(after)};
  for await (const [key] of store.entries(Bucket.stateTrie, {...from, limit})) keys.push(key);
  const last = keys.length < limit ? undefined : keys.at(-1);
  const marked = new Set<string>();
  const staleMarks: Uint8Array[] = [];
  const range = last === undefined ? from : {...from, lt: keyAfter(last)};
  for await (const [key, value] of store.entries(Bucket.stateMark, range)) {
    if (isMarkOf(value, epoch)) marked.add(bytesToHex(key));
    else staleMarks.push(key);
  }
  const unmarked = keys.filter((key) => !marked.has(bytesToHex(key)));
  return {unmarked, staleMarks, scanned: keys.length, last};
}

/**
 * The deletes of the scanned keys, and of the stale marks, that no write has stored since the scan
 * began: the part of a sweep step that must not interleave with a write that stores state (the caller
 * runs it where imports and state edits run, one at a time, and writes the batch before the next of
 * them). `storedSince` holds the `stateTrie` keys (hex) of every batch written after the scan began
 * (each such batch marked what it stored, and the scan may have read the marks before it): no store
 * read, so an import waits for the building and the write of one batch only.
 */
export function sweepDeletes(scan: SweepScan, storedSince: ReadonlySet<string>): CollectionStep {
  const batch = new WriteBatch();
  let deleted = 0;
  for (const key of scan.unmarked) {
    if (storedSince.has(bytesToHex(key))) continue;
    batch.del(Bucket.stateTrie, key);
    deleted++;
  }
  for (const key of scan.staleMarks) if (!storedSince.has(bytesToHex(key))) batch.del(Bucket.stateMark, key);
  return {batch, scanned: scan.scanned, deleted, last: scan.last};
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
