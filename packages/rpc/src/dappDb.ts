/**
 * The `db_*` methods' key-value store (docs/rpc.md §4.7), geth's old "dapp database": values under a
 * database name and a key, in the node's own database (`Bucket.dappDb`). Bounded per key, per value
 * and in total; the total is stored beside the values, each write putting the value and the new total
 * in one batch, so that the bound holds across restarts and a crash never leaves them apart.
 */
import {Bucket, type KeyValueStore, WriteBatch} from "@xchain/db";
import {bigIntToFixedBytes, bytesToBigInt, concatBytes, NodeError, SerialQueue, utf8ToBytes} from "@xchain/utils";
import type {DappStore} from "./deps.ts";
import type {DappDbOptions} from "./options.ts";

/** Each reason a `db_*` write or read is refused. */
export enum DappDbErrorCode {
  /** The database name and key together are longer than `rpc.db.maxKeyBytes`. */
  KEY_TOO_LARGE = "DAPP_DB_KEY_TOO_LARGE",
  /** The value is longer than `rpc.db.maxValueBytes`. */
  VALUE_TOO_LARGE = "DAPP_DB_VALUE_TOO_LARGE",
  /** The write would take the store past `rpc.db.maxTotalBytes`. */
  FULL = "DAPP_DB_FULL",
  /** `db_getString` of a value that is not UTF-8 text (one `db_putHex` stored). */
  NOT_TEXT = "DAPP_DB_NOT_TEXT",
}

/** Each code with its metadata: the bound and its size, or the entry. */
export type DappDbErrorType =
  | {code: DappDbErrorCode.KEY_TOO_LARGE; bytes: number; limit: number}
  | {code: DappDbErrorCode.VALUE_TOO_LARGE; bytes: number; limit: number}
  | {code: DappDbErrorCode.FULL; total: number; limit: number}
  | {code: DappDbErrorCode.NOT_TEXT; database: string; key: string};

/** A refused `db_*` call; the message names the bound and its config key. */
export class DappDbError extends NodeError<DappDbErrorType> {}

/** The stored total's key; entries start with `ENTRY`, so neither can be read as the other. */
const TOTAL_KEY = Uint8Array.of(0x00);
/** The total is stored in 8 bytes, big-endian. */
const TOTAL_BYTES = 8;
const ENTRY = 0x01;
const NAME_LENGTH_BYTES = 4;
/** Strict UTF-8 that keeps a leading byte order mark: a stored "\ufeff…" reads back as written. */
const utf8 = new TextDecoder("utf-8", {fatal: true, ignoreBOM: true});

/** What the store works over. */
export interface DappDbModules {
  /** The node's database; entries and the total live under `Bucket.dappDb`. */
  store: KeyValueStore;
}

/** The store over the node's database. */
export class DappDb implements DappStore {
  /** Writes one at a time: each reads the entry it replaces and the total before it writes. */
  private readonly writes = new SerialQueue();

  private constructor(
    private readonly opts: DappDbOptions,
    private readonly store: KeyValueStore,
    private total: number,
  ) {}

  /**
   * Opens the store on `store`: its total as stored, or counted from the entries when no total is
   * stored yet (an empty store counts 0) or the stored one is not 8 bytes.
   */
  static async open(opts: DappDbOptions, modules: DappDbModules): Promise<DappDb> {
    const {store} = modules;
    const stored = await store.get(Bucket.dappDb, TOTAL_KEY);
    const total = stored?.length === TOTAL_BYTES ? Number(bytesToBigInt(stored)) : await countEntries(store);
    return new DappDb(opts, store, total);
  }

  /** The bytes stored: every database name, key and value, counted once per entry. */
  get totalBytes(): number {
    return this.total;
  }

  /** The value under `database` and `key`, or undefined when none is stored. */
  get(database: string, key: string): Promise<Uint8Array | undefined> {
    return this.store.get(Bucket.dappDb, entryKey(database, key).key);
  }

  /** `get` as text: a `DappDbError` NOT_TEXT when the bytes are not UTF-8 (stored with `db_putHex`). */
  async getText(database: string, key: string): Promise<string | undefined> {
    const value = await this.get(database, key);
    if (value === undefined) return undefined;
    try {
      return utf8.decode(value);
    } catch {
      throw new DappDbError(
        {code: DappDbErrorCode.NOT_TEXT, database, key},
        `the value of ${JSON.stringify(key)} in ${JSON.stringify(database)} is not UTF-8 text; read it with db_getHex`,
      );
    }
  }

  /**
   * Stores `value` under `database` and `key`, replacing what was there; a `DappDbError` when the key,
   * the value or the new total passes its bound. A write that does not grow the store is accepted
   * even above `maxTotalBytes` (lowered since), so that values can still be shrunk.
   */
  async put(database: string, key: string, value: Uint8Array): Promise<void> {
    const entry = entryKey(database, key);
    if (entry.nameBytes > this.opts.maxKeyBytes) {
      throw new DappDbError(
        {code: DappDbErrorCode.KEY_TOO_LARGE, bytes: entry.nameBytes, limit: this.opts.maxKeyBytes},
        `limit exceeded: the database name and key are ${entry.nameBytes} bytes together, more than rpc.db.maxKeyBytes (${this.opts.maxKeyBytes})`,
      );
    }
    if (value.length > this.opts.maxValueBytes) {
      throw new DappDbError(
        {code: DappDbErrorCode.VALUE_TOO_LARGE, bytes: value.length, limit: this.opts.maxValueBytes},
        `limit exceeded: the value is ${value.length} bytes, more than rpc.db.maxValueBytes (${this.opts.maxValueBytes})`,
      );
    }
    await this.writes.run(() => this.write(entry, value));
  }

  private async write(entry: {key: Uint8Array; nameBytes: number}, value: Uint8Array): Promise<void> {
    const previous = await this.store.get(Bucket.dappDb, entry.key);
    const next =
      this.total - (previous === undefined ? 0 : entry.nameBytes + previous.length) + entry.nameBytes + value.length;
    if (next > this.opts.maxTotalBytes && next > this.total) {
      throw new DappDbError(
        {code: DappDbErrorCode.FULL, total: this.total, limit: this.opts.maxTotalBytes},
        `limit exceeded: the db_* store holds ${this.total} bytes, and this write would make it ${next}, ` +
          `more than rpc.db.maxTotalBytes (${this.opts.maxTotalBytes})`,
      );
    }
    await this.store.write(
      new WriteBatch()
        .put(Bucket.dappDb, entry.key, value)
        .put(Bucket.dappDb, TOTAL_KEY, bigIntToFixedBytes(BigInt(next), TOTAL_BYTES)),
    );
    this.total = next;
  }
}

/**
 * The stored key of an entry and the bytes its names count: the database name's length comes first
 * (4 bytes, big-endian), so that no database name and key can be read as another pair.
 */
function entryKey(database: string, key: string): {key: Uint8Array; nameBytes: number} {
  const name = utf8ToBytes(database);
  const keyBytes = utf8ToBytes(key);
  const prefix = new Uint8Array(1 + NAME_LENGTH_BYTES);
  prefix[0] = ENTRY;
  new DataView(prefix.buffer).setUint32(1, name.length);
  return {key: concatBytes(prefix, name, keyBytes), nameBytes: name.length + keyBytes.length};
}

/** The bytes the entries of the bucket count (names and values), for a store without a stored total. */
async function countEntries(store: KeyValueStore): Promise<number> {
  let total = 0;
  for await (const [key, value] of store.entries(Bucket.dappDb, {gte: Uint8Array.of(ENTRY)})) {
    total += key.length - 1 - NAME_LENGTH_BYTES + value.length;
  }
  return total;
}
