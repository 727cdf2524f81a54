import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterEach, describe, expect, it} from "vitest";
import {
  Bucket,
  DatabaseError,
  DatabaseErrorCode,
  LevelStore,
  numberFromKey,
  numberKey,
  WriteBatch,
} from "../src/index.ts";

const open: LevelStore[] = [];
async function freshStore(path = mkdtempSync(join(tmpdir(), "xchain-db-"))): Promise<LevelStore> {
  const store = await LevelStore.open(path);
  open.push(store);
  return store;
}

afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

describe("LevelStore", () => {
  it("writes a batch across buckets and reads it back", async () => {
    const store = await freshStore();
    const key = Uint8Array.of(1, 2, 3);
    await store.write(
      new WriteBatch().put(Bucket.header, key, Uint8Array.of(9)).put(Bucket.body, key, Uint8Array.of(8)),
    );
    expect(await store.get(Bucket.header, key)).toEqual(Uint8Array.of(9));
    expect(await store.get(Bucket.body, key)).toEqual(Uint8Array.of(8));
    expect(await store.get(Bucket.receipts, key)).toBeUndefined();
    await store.write(new WriteBatch().del(Bucket.header, key));
    expect(await store.get(Bucket.header, key)).toBeUndefined();
  });

  it("iterates one bucket in key order, within a range, forwards and backwards", async () => {
    const store = await freshStore();
    const batch = new WriteBatch();
    for (const n of [5, 1, 300, 42]) batch.put(Bucket.canonicalHash, numberKey(n), Uint8Array.of(n % 256));
    batch.put(Bucket.canonicalBloom, numberKey(7), Uint8Array.of(7));
    await store.write(batch);
    const all: number[] = [];
    for await (const [k] of store.entries(Bucket.canonicalHash)) all.push(numberFromKey(k));
    expect(all).toEqual([1, 5, 42, 300]);
    const some: number[] = [];
    for await (const [k] of store.entries(Bucket.canonicalHash, {
      gte: numberKey(5),
      lt: numberKey(300),
      reverse: true,
    })) {
      some.push(numberFromKey(k));
    }
    expect(some).toEqual([42, 5]);
  });

  it("opens with the block cache and write buffer it is given, and reports LevelDB's memory", async () => {
    const path = mkdtempSync(join(tmpdir(), "xchain-db-"));
    // 4 MiB of incompressible values, written then reopened so that they are read from tables.
    const values = Array.from({length: 1024}, (_, i) => {
      const value = new Uint8Array(4096);
      for (let j = 0; j < value.length; j++) value[j] = (i * 7919 + j * 104_729) % 251;
      return value;
    });
    const writer = await LevelStore.open(path);
    const batch = new WriteBatch();
    for (const [i, v] of values.entries()) batch.put(Bucket.stateTrie, numberKey(i), v);
    await writer.write(batch);
    await writer.close();
    const readAll = async (store: LevelStore) => {
      for (let i = 0; i < values.length; i++)
        expect(await store.get(Bucket.stateTrie, numberKey(i))).toEqual(values[i]);
    };

    const small = await LevelStore.open(path, undefined, {cacheBytes: 256 * 1024, writeBufferBytes: 1024 * 1024});
    await readAll(small);
    // The block cache holds at most its size; the memtable is empty after the reopen.
    const smallMemory = small.memoryBytes();
    expect(smallMemory).toBeGreaterThan(0);
    expect(smallMemory).toBeLessThanOrEqual(256 * 1024 + 64 * 1024);
    await small.close();

    const large = await LevelStore.open(path, undefined, {cacheBytes: 16 * 1024 * 1024});
    open.push(large);
    await readAll(large);
    expect(large.memoryBytes()).toBeGreaterThan(2 * 1024 * 1024);
  });

  it("refuses a second open of the same directory with DATABASE_LOCKED", async () => {
    const path = mkdtempSync(join(tmpdir(), "xchain-db-"));
    await freshStore(path);
    await expect(LevelStore.open(path)).rejects.toSatisfy(
      (e) => e instanceof DatabaseError && e.code === DatabaseErrorCode.LOCKED,
    );
  });
});
