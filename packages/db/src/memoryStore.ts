/** An in-memory `KeyValueStore` (tests, and throwaway computations such as a genesis root): the same bucketed keys and atomic batches as `LevelStore`. */

import {bytesToHex, compareBytes, hexToBytes} from "@xchain/utils";
import type {Bucket} from "./buckets.ts";
import {type BucketRange, bucketKey, type KeyValueStore, type WriteBatch} from "./store.ts";

/** Keys and values in a Map; `entries` sorts the bucket's keys on each call. */
export class MemoryStore implements KeyValueStore {
  private readonly data = new Map<string, Uint8Array>();

  async get(bucket: Bucket, key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.data.get(bytesToHex(bucketKey(bucket, key)));
  }

  async getMany(bucket: Bucket, keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    return keys.map((key) => this.data.get(bytesToHex(bucketKey(bucket, key))));
  }

  async *entries(bucket: Bucket, range: BucketRange = {}): AsyncIterable<[Uint8Array, Uint8Array]> {
    const gte = bucketKey(bucket, range.gte ?? new Uint8Array(0));
    const lt = range.lt ? bucketKey(bucket, range.lt) : Uint8Array.of(bucket + 1);
    const keys = [...this.data.keys()]
      .map((k) => hexToBytes(k))
      .filter((k) => compareBytes(k, gte) >= 0 && compareBytes(k, lt) < 0)
      .sort(compareBytes);
    if (range.reverse) keys.reverse();
    for (const key of keys.slice(0, range.limit ?? keys.length)) {
      yield [key.subarray(1), this.data.get(bytesToHex(key)) as Uint8Array];
    }
  }

  async write(batch: WriteBatch): Promise<void> {
    for (const op of batch.ops) {
      if (op.type === "put") this.data.set(bytesToHex(op.key), op.value);
      else this.data.delete(bytesToHex(op.key));
    }
  }

  /** The number of stored entries, over all buckets. */
  get size(): number {
    return this.data.size;
  }
}
