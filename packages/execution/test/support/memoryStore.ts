/** An in-memory `KeyValueStore`, so the tests run the real `StateDatabase` without a disk. */
import {Bucket, type BucketRange, bucketKey, type KeyValueStore, type WriteBatch} from "@xchain/db";
import {bytesToHex, compareBytes, hexToBytes} from "@xchain/utils";

export class MemoryStore implements KeyValueStore {
  private readonly map = new Map<string, Uint8Array>();

  async get(bucket: Bucket, key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.map.get(bytesToHex(bucketKey(bucket, key)));
  }

  async *entries(bucket: Bucket, range: BucketRange = {}): AsyncIterable<[Uint8Array, Uint8Array]> {
    const keys = [...this.map.keys()].map(hexToBytes).filter((k) => k[0] === bucket);
    keys.sort(compareBytes);
    if (range.reverse) keys.reverse();
    let count = 0;
    for (const key of keys) {
      const inner = key.subarray(1);
      if (range.gte && compareBytes(inner, range.gte) < 0) continue;
      if (range.lt && compareBytes(inner, range.lt) >= 0) continue;
      if (range.limit !== undefined && range.limit >= 0 && count++ >= range.limit) return;
      yield [inner, this.map.get(bytesToHex(key)) as Uint8Array];
    }
  }

  async write(batch: WriteBatch): Promise<void> {
    for (const op of batch.ops) {
      if (op.type === "put") this.map.set(bytesToHex(op.key), op.value);
      else this.map.delete(bytesToHex(op.key));
    }
  }

  /** Number of entries in `bucket`. */
  count(bucket: Bucket = Bucket.stateTrie): number {
    let n = 0;
    for (const key of this.map.keys()) if (hexToBytes(key.slice(0, 2))[0] === bucket) n++;
    return n;
  }
}
