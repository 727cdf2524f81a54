import {randomBytes} from "node:crypto";
import {mkdtempSync, readdirSync, readFileSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {noopLogger} from "@xchain/utils";
import {ClassicLevel} from "classic-level";
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

  it("estimates each bucket's bytes on disk, and compacts deleted entries away", async () => {
    const store = await freshStore();
    // Random values do not compress: the estimate is close to what was written.
    const batch = new WriteBatch();
    for (let n = 0; n < 200; n++) batch.put(Bucket.body, numberKey(n), randomBytes(1000));
    await store.write(batch);
    // Written to the write-ahead log only: table files hold nothing yet.
    expect(await store.approximateBucketBytes(Bucket.body)).toBe(0);
    await store.compact();
    const bodyBytes = await store.approximateBucketBytes(Bucket.body);
    expect(bodyBytes).toBeGreaterThan(150_000);
    expect(bodyBytes).toBeLessThan(250_000);
    expect(await store.approximateBucketBytes(Bucket.header)).toBe(0);
    const deletes = new WriteBatch();
    for (let n = 0; n < 200; n++) deletes.del(Bucket.body, numberKey(n));
    await store.write(deletes);
    await store.compact();
    expect(await store.approximateBucketBytes(Bucket.body)).toBeLessThan(10_000);
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
    // Compared as bytes: `toEqual` walks 4 MiB element by element (20 s, near the test's timeout).
    const readAll = async (store: LevelStore) => {
      const differing: number[] = [];
      for (let i = 0; i < values.length; i++) {
        const read = await store.get(Bucket.stateTrie, numberKey(i));
        if (!read || Buffer.compare(read, values[i]!) !== 0) differing.push(i);
      }
      expect(differing).toEqual([]);
    };

    const small = await LevelStore.open(path, {cacheBytes: 256 * 1024, writeBufferBytes: 1024 * 1024});
    await readAll(small);
    // The block cache holds at most its size; the memtable is empty after the reopen.
    const smallMemory = small.memoryBytes();
    expect(smallMemory).toBeGreaterThan(0);
    expect(smallMemory).toBeLessThanOrEqual(256 * 1024 + 64 * 1024);
    await small.close();

    const large = await LevelStore.open(path, {cacheBytes: 16 * 1024 * 1024});
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

describe("LevelStore damage and space", () => {
  const logger = () => {
    const lines: string[] = [];
    return {lines, logger: {...noopLogger, error: (_: unknown, message?: string) => lines.push(message ?? "")}};
  };

  it("opened without create where there is no database fails with DATABASE_MISSING", async () => {
    const path = mkdtempSync(join(tmpdir(), "xchain-db-"));
    await expect(LevelStore.open(path, {create: false})).rejects.toSatisfy(
      (e) => e instanceof DatabaseError && e.code === DatabaseErrorCode.MISSING,
    );
  });

  it("answers a damaged table block with DATABASE_CORRUPTED (never its bytes), logged once; repair recovers the rest", async () => {
    const path = mkdtempSync(join(tmpdir(), "xchain-db-"));
    const level = new ClassicLevel<Uint8Array, Uint8Array>(path, {keyEncoding: "view", valueEncoding: "view"});
    await level.open();
    const keys = Array.from({length: 2_000}, (_, i) => numberKey(i));
    await level.batch(
      keys.map((key) => ({type: "put" as const, key: Uint8Array.of(Bucket.header, ...key), value: randomBytes(100)})),
    );
    await level.compactRange(Uint8Array.of(0), Uint8Array.of(0xff));
    await level.close();
    const table = readdirSync(path).find((f) => f.endsWith(".ldb")) as string;
    const bytes = readFileSync(join(path, table));
    for (let i = 0; i < 64; i++) bytes[10_000 + i] = (bytes[10_000 + i] as number) ^ 0xff;
    writeFileSync(join(path, table), bytes);

    const {lines, logger: log} = logger();
    const store = await LevelStore.open(path, {}, {logger: log});
    let damaged = 0;
    for (const key of keys) {
      try {
        await store.get(Bucket.header, key);
      } catch (e) {
        expect(e).toBeInstanceOf(DatabaseError);
        expect((e as DatabaseError).code).toBe(DatabaseErrorCode.CORRUPTED);
        damaged++;
      }
    }
    expect(damaged).toBeGreaterThan(0);
    expect(store.damage?.message).toMatch(/Corruption: block checksum mismatch/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/xchain db verify.*xchain db repair/);
    await store.close();

    await LevelStore.repair(path);
    const repaired = await freshStore(path);
    let kept = 0;
    for (const key of keys) if ((await repaired.get(Bucket.header, key)) !== undefined) kept++;
    expect(kept).toBe(keys.length - damaged);
  });

  it("refuses a write below the free-space floor with DATABASE_DISK_FULL, writing nothing", async () => {
    const {lines, logger: log} = logger();
    const store = await LevelStore.open(
      mkdtempSync(join(tmpdir(), "xchain-db-")),
      {minFreeBytes: Number.MAX_SAFE_INTEGER},
      {logger: log},
    );
    open.push(store);
    const write = () => store.write(new WriteBatch().put(Bucket.header, Uint8Array.of(1), Uint8Array.of(2)));
    for (let i = 0; i < 3; i++) {
      await expect(write()).rejects.toSatisfy(
        (e) => e instanceof DatabaseError && e.code === DatabaseErrorCode.DISK_FULL,
      );
    }
    expect(await store.get(Bucket.header, Uint8Array.of(1))).toBeUndefined();
    expect(store.diskFull?.message).toMatch(/below the floor of .* \(db\.minFreeMb\)/);
    expect(lines).toHaveLength(1);
  });
});
