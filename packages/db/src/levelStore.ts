/** The LevelDB (classic-level) implementation of `KeyValueStore`. */

import {NodeError} from "@xchain/utils";
import {ClassicLevel} from "classic-level";
import type {Bucket} from "./buckets.ts";
import {type BucketRange, bucketKey, type KeyValueStore, type WriteBatch} from "./store.ts";

const ENCODING = {keyEncoding: "view", valueEncoding: "view"} as const;

export enum DatabaseErrorCode {
  /** Another process (or another open in this one) holds the database's lock. */
  LOCKED = "DATABASE_LOCKED",
  OPEN_FAILED = "DATABASE_OPEN_FAILED",
}

export type DatabaseErrorType =
  | {code: DatabaseErrorCode.LOCKED; path: string}
  | {code: DatabaseErrorCode.OPEN_FAILED; path: string; reason: string};

export class DatabaseError extends NodeError<DatabaseErrorType> {}

/**
 * How the database is shared with worker threads of this process (classic-level's `multithreading`:
 * every handle on one location must set it, and the handles then share one LevelDB instance).
 * `share`: this handle owns the database and lets workers join it; a second `share` open of the
 * same path in this process still fails with LOCKED. `join`: a worker's handle on a database that
 * its process opened with `share`, under the same path string.
 */
export type LevelStoreThreads = "share" | "join";

/**
 * LevelDB's own memory (docs/operations.md §6): the block cache of uncompressed table blocks and
 * the write buffer (the memtable; up to two are held while one is written out). Unset: LevelDB's
 * defaults, 8 MiB and 4 MiB. Ignored by a `join` open, which shares the owner's instance.
 */
export interface LevelStoreMemory {
  cacheBytes?: number;
  writeBufferBytes?: number;
}

/** The paths this thread opened with `share`: LevelDB's own lock no longer refuses a second open in this process. */
const sharedPaths = new Set<string>();

/** A LevelDB database at a directory; keys are bucket byte + key. */
export class LevelStore implements KeyValueStore {
  private constructor(
    private readonly db: ClassicLevel<Uint8Array, Uint8Array>,
    readonly path: string,
    private readonly shared: boolean,
  ) {}

  /**
   * Opens (creating if needed) the database at `path`; a database locked by another process (or
   * another open in this one) fails with LOCKED. `threads` shares it with worker threads.
   */
  static async open(path: string, threads?: LevelStoreThreads, memory: LevelStoreMemory = {}): Promise<LevelStore> {
    if (threads === "share" && sharedPaths.has(path)) {
      throw new DatabaseError(
        {code: DatabaseErrorCode.LOCKED, path},
        `database at ${path} is in use by another process`,
      );
    }
    const db = new ClassicLevel<Uint8Array, Uint8Array>(path, ENCODING);
    try {
      await db.open({
        ...(threads === undefined ? {} : {multithreading: true}),
        ...(memory.cacheBytes === undefined ? {} : {cacheSize: memory.cacheBytes}),
        ...(memory.writeBufferBytes === undefined ? {} : {writeBufferSize: memory.writeBufferBytes}),
      });
    } catch (e) {
      const cause = (e as {cause?: {code?: string}}).cause;
      if (cause?.code === "LEVEL_LOCKED") {
        throw new DatabaseError(
          {code: DatabaseErrorCode.LOCKED, path},
          `database at ${path} is in use by another process`,
        );
      }
      const reason = e instanceof Error ? e.message : String(e);
      throw new DatabaseError(
        {code: DatabaseErrorCode.OPEN_FAILED, path, reason},
        `cannot open database at ${path}: ${reason}`,
      );
    }
    if (threads === "share") sharedPaths.add(path);
    return new LevelStore(db, path, threads === "share");
  }

  async get(bucket: Bucket, key: Uint8Array): Promise<Uint8Array | undefined> {
    const value = await this.db.get(bucketKey(bucket, key));
    return value === undefined ? undefined : view(value);
  }

  async *entries(bucket: Bucket, range: BucketRange = {}): AsyncIterable<[Uint8Array, Uint8Array]> {
    const iterator = this.db.iterator({
      gte: bucketKey(bucket, range.gte ?? new Uint8Array(0)),
      lt: range.lt ? bucketKey(bucket, range.lt) : Uint8Array.of(bucket + 1),
      reverse: range.reverse ?? false,
      limit: range.limit ?? -1,
    });
    try {
      for await (const [key, value] of iterator) yield [view(key).subarray(1), view(value)];
    } finally {
      await iterator.close();
    }
  }

  async write(batch: WriteBatch): Promise<void> {
    if (batch.size === 0) return;
    await this.db.batch(batch.ops);
  }

  /** Reads several keys of one bucket at once. */
  async getMany(bucket: Bucket, keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    const values = await this.db.getMany(keys.map((k) => bucketKey(bucket, k)));
    return values.map((v) => (v === undefined ? undefined : view(v)));
  }

  /** LevelDB's estimate of its memory: the block cache's charge plus the memtables. */
  memoryBytes(): number {
    return Number(this.db.getProperty("leveldb.approximate-memory-usage"));
  }

  async close(): Promise<void> {
    await this.db.close();
    if (this.shared) sharedPaths.delete(this.path);
  }
}

/** classic-level hands out Buffers; expose plain Uint8Array views of the same memory. */
function view(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}
