/**
 * The marks of a state collection (docs/operations.md §12): bucket `stateMark`, keyed as `stateTrie`.
 * A collection keeps every `stateTrie` entry that has a mark and deletes the others. Marks are
 * written by the walk of the retained roots (`markState`) and, while a collection runs, in the very
 * batch of every write that stores state (`markStateWrites`): an entry a new block stores, even one
 * whose content equals garbage the collection is about to delete, is kept.
 */
import {type BatchOp, Bucket, bucketKey} from "@xchain/db";

/** A mark's value. */
export enum StateMark {
  /** Stored by a write during the collection; what it references is kept through the state it was built on. */
  KEPT = 0,
  /** Reached from a retained root, and so was everything it references (written after them). */
  WHOLE = 1,
}

const KEPT_VALUE = Uint8Array.of(StateMark.KEPT);

/** The mark puts for the `stateTrie` puts of `ops` (to append to the same batch). */
export function markStateWrites(ops: readonly BatchOp[]): BatchOp[] {
  const marks: BatchOp[] = [];
  for (const op of ops) {
    if (op.type !== "put" || op.key[0] !== Bucket.stateTrie) continue;
    marks.push({type: "put", key: bucketKey(Bucket.stateMark, op.key.subarray(1)), value: KEPT_VALUE});
  }
  return marks;
}

/** The smallest key above `key` (as LevelDB orders keys): a range that starts after `key`. */
export function keyAfter(key: Uint8Array): Uint8Array {
  const next = new Uint8Array(key.length + 1);
  next.set(key);
  return next;
}
