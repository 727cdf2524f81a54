/** The LevelDB (classic-level) implementation of `KeyValueStore`. */

import {statfsSync} from "node:fs";
import {type Logger, noopLogger} from "@xchain/utils";
import {ClassicLevel} from "classic-level";
import type {Bucket} from "./buckets.ts";
import {DatabaseError, DatabaseErrorCode, databaseErrorOf} from "./errors.ts";
import {type BucketRange, bucketKey, type KeyValueStore, type WriteBatch} from "./store.ts";

const ENCODING = {keyEncoding: "view", valueEncoding: "view"} as const;

/** How often a full disk is logged while writes keep failing. */
const DISK_FULL_LOG_INTERVAL_MS = 60_000;

/**
 * How the database is shared with worker threads of this process (classic-level's `multithreading`:
 * every handle on one location must set it, and the handles then share one LevelDB instance).
 * `share`: this handle owns the database and lets workers join it; a second `share` open of the
 * same path in this process still fails with LOCKED. `join`: a worker's handle on a database that
 * its process opened with `share`, under the same path string.
 */
export type LevelStoreThreads = "share" | "join";

export interface LevelStoreOptions {
  threads?: LevelStoreThreads;
  /** Create the database when there is none (default); false fails with MISSING instead. */
  create?: boolean;
  /**
   * Writes are refused (DISK_FULL) while the device has less free space than this (default 0: only
   * when the device itself refuses). A write LevelDB starts on a full device can leave a partial
   * record in its write-ahead log, which the paranoid checks then read as damage at the next open.
   */
  minFreeBytes?: number;
  /**
   * LevelDB's own memory (docs/operations.md §8): the block cache of uncompressed table blocks and
   * the write buffer (the memtable; up to two are held while one is written out). Unset: LevelDB's
   * defaults, 8 MiB and 4 MiB. Ignored by a `join` open, which shares the owner's instance.
   */
  cacheBytes?: number;
  writeBufferBytes?: number;
}

export interface LevelStoreModules {
  /** Told once of the first damage met, and of a full disk at most once a minute. */
  logger?: Logger;
}

/** The paths this thread opened with `share`: LevelDB's own lock no longer refuses a second open in this process. */
const sharedPaths = new Set<string>();

/**
 * A LevelDB database at a directory; keys are bucket byte + key.
 *
 * Opened with LevelDB's paranoid checks (the patched binding, patches/README.md): every block read
 * is checked against its CRC, and a damaged write-ahead log or table fails the open instead of being
 * skipped, so damage surfaces as a CORRUPTED error rather than as wrong or missing values. Every
 * failure is a typed `DatabaseError`; the first damage and a full disk are also kept (`damage`,
 * `diskFull`) for the node's readiness and logged for the operator.
 */
export class LevelStore implements KeyValueStore {
  private damaged: DatabaseError | undefined;
  private full: DatabaseError | undefined;
  private fullLoggedAt = Number.NEGATIVE_INFINITY;
  private fullSinceLog = 0;

  private constructor(
    private readonly db: ClassicLevel<Uint8Array, Uint8Array>,
    readonly path: string,
    private readonly shared: boolean,
    private readonly minFreeBytes: number,
    private readonly logger: Logger,
  ) {}

  /**
   * Opens the database at `path` (creating it unless `create` is false); a database locked by
   * another process (or another open in this one) fails with LOCKED, a damaged one with CORRUPTED.
   */
  static async open(path: string, opts: LevelStoreOptions = {}, modules: LevelStoreModules = {}): Promise<LevelStore> {
    const {threads, create = true} = opts;
    if (threads === "share" && sharedPaths.has(path)) {
      throw new DatabaseError(
        {code: DatabaseErrorCode.LOCKED, path},
        `database at ${path} is in use by another process`,
      );
    }
    const db = new ClassicLevel<Uint8Array, Uint8Array>(path, ENCODING);
    try {
      await db.open({
        paranoidChecks: true,
        createIfMissing: create,
        multithreading: threads !== undefined,
        ...(opts.cacheBytes === undefined ? {} : {cacheSize: opts.cacheBytes}),
        ...(opts.writeBufferBytes === undefined ? {} : {writeBufferSize: opts.writeBufferBytes}),
      });
    } catch (e) {
      throw databaseErrorOf(e, path);
    }
    if (threads === "share") sharedPaths.add(path);
    return new LevelStore(db, path, threads === "share", opts.minFreeBytes ?? 0, modules.logger ?? noopLogger);
  }

  /**
   * Rebuilds the database's manifest from the tables and logs found (LevelDB's RepairDB): what was
   * in damaged blocks is dropped, everything else kept. The database must not be open.
   */
  static async repair(path: string): Promise<void> {
    try {
      await ClassicLevel.repair(path);
    } catch (e) {
      throw databaseErrorOf(e, path);
    }
  }

  /** The first damage a read or write met since the open, if any. */
  get damage(): DatabaseError | undefined {
    return this.damaged;
  }

  /** The last write's failure for lack of space, until a write succeeds again. */
  get diskFull(): DatabaseError | undefined {
    return this.full;
  }

  async get(bucket: Bucket, key: Uint8Array): Promise<Uint8Array | undefined> {
    let value: Uint8Array | undefined;
    try {
      value = await this.db.get(bucketKey(bucket, key));
    } catch (e) {
      throw this.fault(e);
    }
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
      for (;;) {
        let entry: [Uint8Array, Uint8Array] | undefined;
        try {
          entry = await iterator.next();
        } catch (e) {
          throw this.fault(e);
        }
        if (entry === undefined) return;
        yield [view(entry[0]).subarray(1), view(entry[1])];
      }
    } finally {
      await iterator.close();
    }
  }

  async write(batch: WriteBatch): Promise<void> {
    if (batch.size === 0) return;
    const bytes = this.minFreeBytes > 0 ? batchBytes(batch) : 0;
    if (bytes > 0) this.checkFreeSpace(bytes);
    try {
      await this.db.batch(batch.ops);
    } catch (e) {
      throw this.fault(e);
    }
    if (this.full) this.spaceBack();
  }

  /**
   * Refuses a write of `bytes` that would leave less than `minFreeBytes` on the device (DISK_FULL).
   * The device is asked on every write: a statfs costs about a microsecond, next to a block's batch.
   */
  private checkFreeSpace(bytes: number): void {
    const {bavail, bsize} = statfsSync(this.path);
    const free = bavail * bsize;
    if (free - bytes >= this.minFreeBytes) return;
    const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
    const reason = `${mib(free)} free, below the floor of ${mib(this.minFreeBytes)} (db.minFreeMb)`;
    throw this.fault(
      new DatabaseError(
        {code: DatabaseErrorCode.DISK_FULL, path: this.path, reason},
        `no space left on the device of the database at ${this.path}: ${reason}`,
      ),
    );
  }

  async getMany(bucket: Bucket, keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    if (keys.length === 0) return [];
    let values: (Uint8Array | undefined)[];
    try {
      values = await this.db.getMany(keys.map((k) => bucketKey(bucket, k)));
    } catch (e) {
      throw this.fault(e);
    }
    return values.map((v) => (v === undefined ? undefined : view(v)));
  }

  /**
   * LevelDB's estimate of the bytes a bucket's keys and values take in its table files (compressed, as
   * on disk); what is still only in the write-ahead log is not counted. Costs a few index lookups.
   */
  async approximateBucketBytes(bucket: Bucket): Promise<number> {
    try {
      return await this.db.approximateSize(Uint8Array.of(bucket), Uint8Array.of(bucket + 1));
    } catch (e) {
      throw this.fault(e);
    }
  }

  /**
   * Compacts every key (LevelDB's CompactRange over the whole range): the write-ahead log and every
   * level are merged down, dropping overwritten and deleted entries. It reads and rewrites every
   * table file: meant for a stopped node (`xchain db compact`).
   */
  async compact(): Promise<void> {
    try {
      await this.db.compactRange(Uint8Array.of(0x00), Uint8Array.of(0xff));
    } catch (e) {
      throw this.fault(e);
    }
  }

  /** LevelDB's estimate of its memory: the block cache's charge plus the memtables. */
  memoryBytes(): number {
    return Number(this.db.getProperty("leveldb.approximate-memory-usage"));
  }

  async close(): Promise<void> {
    await this.db.close();
    if (this.shared) sharedPaths.delete(this.path);
  }

  /** The typed error for a failure, remembered and logged when it is damage or a full disk. */
  private fault(e: unknown): DatabaseError {
    const error = databaseErrorOf(e, this.path);
    if (error.code === DatabaseErrorCode.CORRUPTED && this.damaged === undefined) {
      this.damaged = error;
      this.logger.error(
        {err: error, path: this.path},
        `${error.message}. Answers that need the damaged data fail until it is repaired: stop the node, ` +
          "run `xchain db verify` to find the damage and `xchain db repair` to recover (docs/operations.md §6)",
      );
    } else if (error.type.code === DatabaseErrorCode.DISK_FULL) {
      this.full = error;
      this.fullSinceLog++;
      const now = Date.now();
      if (now - this.fullLoggedAt >= DISK_FULL_LOG_INTERVAL_MS) {
        this.logger.error(
          {path: this.path, failedWrites: this.fullSinceLog, reason: error.type.reason},
          `no space left on the device of ${this.path}: ${this.fullSinceLog} write(s) refused; blocks are not ` +
            "stored and transactions not accepted until space is freed (nothing stored is lost)",
        );
        this.fullLoggedAt = now;
        this.fullSinceLog = 0;
      }
    }
    return error;
  }

  private spaceBack(): void {
    this.full = undefined;
    this.fullLoggedAt = Number.NEGATIVE_INFINITY;
    this.fullSinceLog = 0;
    this.logger.info({path: this.path}, `space is available again on the device of ${this.path}: writes succeed`);
  }
}

/** The bytes a batch adds to the write-ahead log, about. */
function batchBytes(batch: WriteBatch): number {
  let bytes = 0;
  for (const op of batch.ops) bytes += op.key.length + (op.type === "put" ? op.value.length : 0) + 8;
  return bytes;
}

/** classic-level hands out Buffers; expose plain Uint8Array views of the same memory. */
function view(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}
