/** The key-value store every persistent component uses: bucketed keys, atomic batches. */
import {concatBytes} from "@xchain/utils";
import type {Bucket} from "./buckets.ts";

/** One write of a batch, with the bucket byte already prefixed to the key. */
export type BatchOp = {type: "put"; key: Uint8Array; value: Uint8Array} | {type: "del"; key: Uint8Array};

/** A set of writes that reach the database together or not at all. */
export class WriteBatch {
  readonly ops: BatchOp[] = [];

  /** Adds a put of `key` in `bucket`. */
  put(bucket: Bucket, key: Uint8Array, value: Uint8Array): this {
    this.ops.push({type: "put", key: bucketKey(bucket, key), value});
    return this;
  }

  /** Adds a delete of `key` in `bucket`. */
  del(bucket: Bucket, key: Uint8Array): this {
    this.ops.push({type: "del", key: bucketKey(bucket, key)});
    return this;
  }

  /** Appends writes already keyed with their bucket byte (e.g. state trie writes). */
  append(ops: readonly BatchOp[]): this {
    for (const op of ops) this.ops.push(op);
    return this;
  }

  get size(): number {
    return this.ops.length;
  }
}

/** Range bounds inside one bucket (keys without the bucket byte). */
export interface BucketRange {
  gte?: Uint8Array;
  lt?: Uint8Array;
  reverse?: boolean;
  limit?: number;
}

/** Read and atomic-write access to the database. */
export interface KeyValueStore {
  get(bucket: Bucket, key: Uint8Array): Promise<Uint8Array | undefined>;
  /** Reads several keys of one bucket in one request (LevelDB: one read job for all); answers in their order. */
  getMany(bucket: Bucket, keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]>;
  /** Entries of a bucket in key order (keys returned without the bucket byte). */
  entries(bucket: Bucket, range?: BucketRange): AsyncIterable<[Uint8Array, Uint8Array]>;
  /** Applies every write of the batch atomically. */
  write(batch: WriteBatch): Promise<void>;
}

/** The key as stored: the bucket byte followed by `key`. */
export function bucketKey(bucket: Bucket, key: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(bucket), key);
}
