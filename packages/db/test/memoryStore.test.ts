import {describe, expect, it} from "vitest";
import {Bucket, MemoryStore, numberKey, WriteBatch} from "../src/index.ts";

describe("MemoryStore", () => {
  it("applies batches and iterates one bucket in key order with ranges, reverse and limit", async () => {
    const store = new MemoryStore();
    const batch = new WriteBatch();
    for (const n of [3, 1, 2, 5]) batch.put(Bucket.canonicalHash, numberKey(n), Uint8Array.of(n));
    batch.put(Bucket.header, numberKey(1), Uint8Array.of(99));
    await store.write(batch);
    const read = async (range = {}) => {
      const out: number[] = [];
      for await (const [, value] of store.entries(Bucket.canonicalHash, range)) out.push(value[0]!);
      return out;
    };
    expect(await read()).toEqual([1, 2, 3, 5]);
    expect(await read({gte: numberKey(2), lt: numberKey(5)})).toEqual([2, 3]);
    expect(await read({reverse: true, limit: 2})).toEqual([5, 3]);
    await store.write(new WriteBatch().del(Bucket.canonicalHash, numberKey(2)));
    expect(await read()).toEqual([1, 3, 5]);
    expect(await store.get(Bucket.header, numberKey(1))).toEqual(Uint8Array.of(99));
    expect(store.size).toBe(4);
  });
});
