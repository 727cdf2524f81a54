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

  it("refuses a second open of the same directory with DATABASE_LOCKED", async () => {
    const path = mkdtempSync(join(tmpdir(), "xchain-db-"));
    await freshStore(path);
    await expect(LevelStore.open(path)).rejects.toSatisfy(
      (e) => e instanceof DatabaseError && e.code === DatabaseErrorCode.LOCKED,
    );
  });
});
