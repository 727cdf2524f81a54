/** db_*'s store (docs/rpc.md §4.7): values by database name and key, the bounds, and the total kept across opens. */
import {Bucket, MemoryStore, WriteBatch} from "@xchain/db";
import {utf8ToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {DappDb, DappDbError, DappDbErrorCode} from "../src/dappDb.ts";
import type {DappDbOptions} from "../src/options.ts";

const BOUNDS: DappDbOptions = {maxKeyBytes: 16, maxValueBytes: 10, maxTotalBytes: 40};

/** The code of the `DappDbError` `promise` rejects with, and its message. */
async function refusal(promise: Promise<unknown>): Promise<{code: string; message: string}> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DappDbError);
  return {code: (error as DappDbError).code, message: (error as DappDbError).message};
}

describe("DappDb", () => {
  it("reads back what was written, as bytes and as text, and nothing under another pair", async () => {
    const db = await DappDb.open(BOUNDS, {store: new MemoryStore()});
    await db.put("app", "greeting", utf8ToBytes("héllo"));
    expect(await db.getText("app", "greeting")).toBe("héllo");
    expect(await db.get("app", "greeting")).toEqual(utf8ToBytes("héllo"));
    expect(await db.get("app", "other")).toBeUndefined();
    expect(await db.getText("other", "greeting")).toBeUndefined();
    // A leading byte order mark is text like any other.
    await db.put("app", "bom", utf8ToBytes("\ufeffhi"));
    expect(await db.getText("app", "bom")).toBe("\ufeffhi");
  });

  it("keeps a database name and key apart from another split of the same characters (geth ran them together)", async () => {
    const db = await DappDb.open(BOUNDS, {store: new MemoryStore()});
    await db.put("ab", "c", utf8ToBytes("first"));
    await db.put("a", "bc", utf8ToBytes("second"));
    expect(await db.getText("ab", "c")).toBe("first");
    expect(await db.getText("a", "bc")).toBe("second");
  });

  it("counts names, keys and values; an overwrite counts the new value in place of the old", async () => {
    const db = await DappDb.open(BOUNDS, {store: new MemoryStore()});
    await db.put("db", "k", utf8ToBytes("12345"));
    expect(db.totalBytes).toBe(2 + 1 + 5);
    await db.put("db", "k", utf8ToBytes("12"));
    expect(db.totalBytes).toBe(2 + 1 + 2);
    await db.put("db", "k2", new Uint8Array(0));
    expect(db.totalBytes).toBe(5 + 2 + 2);
  });

  it("refuses a value or a name and key past their bounds, naming the config key, and stores nothing", async () => {
    const db = await DappDb.open(BOUNDS, {store: new MemoryStore()});
    expect(await refusal(db.put("db", "k", new Uint8Array(11)))).toEqual({
      code: DappDbErrorCode.VALUE_TOO_LARGE,
      message: "limit exceeded: the value is 11 bytes, more than rpc.db.maxValueBytes (10)",
    });
    // 8 + 9 bytes: é is two bytes in UTF-8.
    expect(await refusal(db.put("database", "éééé-", new Uint8Array(1)))).toEqual({
      code: DappDbErrorCode.KEY_TOO_LARGE,
      message: "limit exceeded: the database name and key are 17 bytes together, more than rpc.db.maxKeyBytes (16)",
    });
    await db.put("db", "k", new Uint8Array(10));
    expect(db.totalBytes).toBe(13);
    expect(await db.get("database", "éééé-")).toBeUndefined();
  });

  it("refuses the write that would pass the total, accepts one that fits exactly and one that does not grow", async () => {
    const db = await DappDb.open(BOUNDS, {store: new MemoryStore()});
    await db.put("d", "1", new Uint8Array(10)); // 12
    await db.put("d", "2", new Uint8Array(10)); // 24
    await db.put("d", "3", new Uint8Array(10)); // 36
    expect(await refusal(db.put("d", "4", new Uint8Array(3)))).toEqual({
      code: DappDbErrorCode.FULL,
      message:
        "limit exceeded: the db_* store holds 36 bytes, and this write would make it 41, more than rpc.db.maxTotalBytes (40)",
    });
    expect(await db.get("d", "4")).toBeUndefined();
    await db.put("d", "4", new Uint8Array(2));
    expect(db.totalBytes).toBe(40);
    await db.put("d", "1", Uint8Array.of(7));
    expect(db.totalBytes).toBe(31);
    expect(await db.get("d", "1")).toEqual(Uint8Array.of(7));
  });

  it("keeps the total across opens of the same database, so the bound still holds", async () => {
    const store = new MemoryStore();
    const first = await DappDb.open(BOUNDS, {store});
    await first.put("d", "1", new Uint8Array(10));
    await first.put("d", "2", new Uint8Array(10));
    await first.put("d", "3", new Uint8Array(10));
    const reopened = await DappDb.open(BOUNDS, {store});
    expect(reopened.totalBytes).toBe(36);
    expect((await refusal(reopened.put("d", "4", new Uint8Array(3)))).code).toBe(DappDbErrorCode.FULL);
  });

  it("accepts a write that does not grow a store above a bound lowered since, and refuses one that grows it", async () => {
    const store = new MemoryStore();
    const roomy = await DappDb.open({...BOUNDS, maxTotalBytes: 100}, {store});
    await roomy.put("d", "1", new Uint8Array(10));
    await roomy.put("d", "2", new Uint8Array(10));
    const lowered = await DappDb.open({...BOUNDS, maxTotalBytes: 10}, {store});
    await lowered.put("d", "1", new Uint8Array(10));
    await lowered.put("d", "2", new Uint8Array(4));
    expect(lowered.totalBytes).toBe(12 + 6);
    expect((await refusal(lowered.put("d", "2", new Uint8Array(5)))).code).toBe(DappDbErrorCode.FULL);
  });

  it("counts the total from the entries when none is stored or the stored one is not 8 bytes", async () => {
    const store = new MemoryStore();
    const db = await DappDb.open(BOUNDS, {store});
    await db.put("d", "1", new Uint8Array(10));
    await db.put("dd", "22", new Uint8Array(3));
    await store.write(new WriteBatch().put(Bucket.dappDb, Uint8Array.of(0), Uint8Array.of(1, 2, 3)));
    expect((await DappDb.open(BOUNDS, {store})).totalBytes).toBe(12 + 7);
    await store.write(new WriteBatch().del(Bucket.dappDb, Uint8Array.of(0)));
    expect((await DappDb.open(BOUNDS, {store})).totalBytes).toBe(12 + 7);
  });

  it("runs writes one at a time: writes sent together count every byte once", async () => {
    const store = new MemoryStore();
    const db = await DappDb.open({...BOUNDS, maxTotalBytes: 1_000}, {store});
    await Promise.all(Array.from({length: 20}, (_, i) => db.put("d", String(i % 5), new Uint8Array(i % 7))));
    const counted = await DappDb.open({...BOUNDS, maxTotalBytes: 1_000}, {store});
    await store.write(new WriteBatch().del(Bucket.dappDb, Uint8Array.of(0)));
    const recounted = await DappDb.open(BOUNDS, {store});
    expect(db.totalBytes).toBe(recounted.totalBytes);
    expect(counted.totalBytes).toBe(recounted.totalBytes);
  });

  it("a write refused in the queue leaves it working for the next", async () => {
    const db = await DappDb.open(BOUNDS, {store: new MemoryStore()});
    for (const key of ["1", "2", "3"]) await db.put("d", key, new Uint8Array(10));
    const refused = db.put("d", "4", new Uint8Array(3));
    const next = db.put("d", "5", new Uint8Array(0));
    expect((await refusal(refused)).code).toBe(DappDbErrorCode.FULL);
    await next;
    expect(await db.get("d", "5")).toEqual(new Uint8Array(0));
    expect(db.totalBytes).toBe(38);
  });

  it("refuses to read bytes that are not UTF-8 as text, saying how to read them", async () => {
    const db = await DappDb.open(BOUNDS, {store: new MemoryStore()});
    await db.put("d", "bin", Uint8Array.of(0xff, 0xfe));
    expect(await refusal(db.getText("d", "bin"))).toEqual({
      code: DappDbErrorCode.NOT_TEXT,
      message: 'the value of "bin" in "d" is not UTF-8 text; read it with db_getHex',
    });
  });
});
