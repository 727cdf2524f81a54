/**
 * The marks of a state collection (docs/operations.md §12): bucket `stateMark`, keyed as `stateTrie`.
 * A collection keeps every `stateTrie` entry that has a mark of its own epoch and deletes the others.
 * Marks are written by the walk of the retained roots (`markState`) and, while a collection runs, in
 * the very batch of every write that stores state (`markStateWrites`): an entry a new block stores,
 * even one whose content equals garbage the collection is about to delete, is kept.
 *
 * A mark's value is its kind and the epoch of the collection that wrote it (the collection's number,
 * big-endian, no bytes for epoch 0). A mark of an older epoch counts as none: the marks of a finished
 * collection need no clearing, the next one writes its own over them and its sweep deletes those left,
 * each with its entry or alone. A store written before epochs (one-byte marks) reads as epoch 0.
 */
import {type BatchOp, Bucket, bucketKey} from "@xchain/db";

/** A mark's kind (its value's first byte). */
export enum StateMark {
  /** Stored by a write during the collection; what it references is kept through the state it was built on. */
  KEPT = 0,
  /** Reached from a retained root, and so was everything it references (written after them). */
  WHOLE = 1,
}

/** A mark's value: `kind` then `epoch`, big-endian, without leading zero bytes. */
export function markValue(kind: StateMark, epoch: number): Uint8Array {
  const bytes = [kind];
  for (let e = epoch; e > 0; e = Math.floor(e / 256)) bytes.splice(1, 0, e % 256);
  return Uint8Array.from(bytes);
}

/** Whether `value` is a mark of `epoch` (of any kind, or of `kind` when given). */
export function isMarkOf(value: Uint8Array | undefined, epoch: number, kind?: StateMark): boolean {
  if (value === undefined || value.length === 0) return false;
  if (kind !== undefined && value[0] !== kind) return false;
  let e = 0;
  for (let i = 1; i < value.length; i++) e = e * 256 + value[i]!;
  return e === epoch;
}

/** The mark puts of `epoch` for the `stateTrie` puts of `ops` (to append to the same batch). */
export function markStateWrites(ops: readonly BatchOp[], epoch = 0): BatchOp[] {
  const value = markValue(StateMark.KEPT, epoch);
  const marks: BatchOp[] = [];
  for (const op of ops) {
    if (op.type !== "put" || op.key[0] !== Bucket.stateTrie) continue;
    marks.push({type: "put", key: bucketKey(Bucket.stateMark, op.key.subarray(1)), value});
  }
  return marks;
}

/** The smallest key above `key` (as LevelDB orders keys): a range that starts after `key`. */
export function keyAfter(key: Uint8Array): Uint8Array {
  const next = new Uint8Array(key.length + 1);
  next.set(key);
  return next;
}
