/**
 * The fork's disk cache (docs/forking.md §1.2): every value fetched from an upstream, as fetched, in a
 * LevelDB database of its own (bucket `forkCache`), so that a second run at the same fork block reads
 * everything locally and an offline run reads nothing else. Keys (after the bucket byte):
 *
 *   0x00 ‖ redacted URL                                   → the upstream's record (JSON: chain id, dialect…)
 *   0x01 ‖ chain id (32) ‖ block number (8)                → the hash of the fork block chosen by that number
 *   0x02 ‖ chain id (32) ‖ fork hash (32) ‖ 0x01           → the fork block as answered (JSON)
 *   0x02 ‖ chain id (32) ‖ fork hash (32) ‖ 0x02 ‖ address → flags (1) ‖ RLP [nonce, balance, codeHash, storageRoot or empty]
 *   0x02 ‖ chain id (32) ‖ fork hash (32) ‖ 0x03 ‖ address ‖ slot → flags (1) ‖ value (32)
 *   0x02 ‖ chain id (32) ‖ fork hash (32) ‖ 0x04 ‖ code hash → code
 *   0x02 ‖ chain id (32) ‖ fork hash (32) ‖ 0x05 ‖ number (8) → block hash (32), for numbers up to the fork block
 *   0x02 ‖ chain id (32) ‖ fork hash (32) ‖ 0x06 ‖ keccak256(request) → a forwarded request's result (JSON)
 *   0x02 ‖ chain id (32) ‖ fork hash (32) ‖ 0x07 ‖ address ‖ key (32) → the raw stored bytes (rskj's, any length; empty: none)
 *
 * Flag bit 0 says the value was verified by a proof against the fork block's state root. Only fetched values
 * are written here: the forked state's own writes never are.
 *
 * Writes are behind the reads (docs/forking.md §1.2): a value put is readable at once (from memory) and
 * written with those put after it in one batch, at most `FLUSH_DELAY_MS` later or once `FLUSH_ENTRIES` wait,
 * batches one after the other, the last on `close()`. A crash loses at most the values of the batches not
 * yet written; each batch is atomic, so the database is never left with part of one. The values read or put
 * recently are kept in memory too (`RECENT_BYTES`), so a value read again costs no database read; and a
 * fork the database held nothing of when it was first opened (`ForkScope.probe`: a first run at a fork
 * block) reads no missing value from it, as long as no value put since has left the memory.
 */
import {RLP} from "@ethereumjs/rlp";
import {Bucket, type KeyValueStore, LevelStore, numberKey, WriteBatch} from "@xchain/db";
import {
  bigIntToBytes,
  bigIntToFixedBytes,
  bytesToBigInt,
  bytesToHex,
  concatBytes,
  hexToBytes,
  type Logger,
  noopLogger,
  utf8ToBytes,
} from "@xchain/utils";
import {LRUCache} from "lru-cache";
import type {ForkAccount} from "./proofs.ts";

/** What the cache remembers of an upstream, so that a warm or offline run asks it nothing. */
export interface UpstreamRecord {
  chainId: bigint;
  clientVersion: string;
  /** Whether it serves eth_getProof; undefined until asked (a run with `verify = off` does not ask). */
  proofs: boolean | undefined;
  /** Whether it refused the EIP-1898 `{blockHash}` form (reads are pinned by number then). */
  pinByNumber: boolean;
  /** The fork block of the last run, for an offline run that names none. */
  lastForkHash: Uint8Array | undefined;
}

/** A cached value and whether a proof verified it. */
export interface Cached<T> {
  value: T;
  verified: boolean;
}

const UPSTREAM = 0x00;
const FORK_BY_NUMBER = 0x01;
const SCOPED = 0x02;
const HEADER = 0x01;
const ACCOUNT = 0x02;
const STORAGE = 0x03;
const CODE = 0x04;
const BLOCK_HASH = 0x05;
const ANSWER = 0x06;
const STORAGE_BYTES = 0x07;
const VERIFIED = 0x01;

/** How long a put value may wait before its batch is written, in ms. */
const FLUSH_DELAY_MS = 50;
/** How many put values start a batch's write at once. */
const FLUSH_ENTRIES = 256;
/** The memory the recently read or put values may take (estimated: key, value and 100 bytes each). */
const RECENT_BYTES = 16 * 1024 * 1024;
const RECENT_ENTRY_BYTES = 100;

export class ForkCache {
  /** Values put and not yet handed to a batch, by key (hex), in the order put. */
  private pending = new Map<string, [Uint8Array, Uint8Array]>();
  /** Values in the batch being written: still read from here until it is. */
  private writing = new Map<string, [Uint8Array, Uint8Array]>();
  /** The batches written so far, one after the other: resolves once the last is. */
  private written: Promise<void> = Promise.resolve();
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly recent = new LRUCache<string, Uint8Array>({
    maxSize: RECENT_BYTES,
    sizeCalculation: (value, key) => key.length / 2 + value.length + RECENT_ENTRY_BYTES,
    dispose: (_value, _key, reason) => {
      if (reason === "evict") this.emptyPrefixes = [];
    },
  });
  /**
   * Key prefixes (hex) of forks the database held nothing of when probed: a key under one that is not in
   * memory is not in the database either, until a value leaves the memory (then this is emptied).
   */
  private emptyPrefixes: string[] = [];
  /** The sources reading this cache (`retain`): the database closes when the last one closes it. */
  private holders = 1;

  private constructor(
    private readonly store: KeyValueStore,
    private readonly level: LevelStore | undefined,
    private readonly logger: Logger,
  ) {}

  /** The cache in `dir` (created if missing); another process holding it fails with the db's LOCKED. */
  static async open(dir: string, modules: {logger?: Logger} = {}): Promise<ForkCache> {
    const level = await LevelStore.open(dir, {}, modules);
    return new ForkCache(level, level, modules.logger ?? noopLogger);
  }

  /** A cache over `store` (a `MemoryStore` in tests). */
  static over(store: KeyValueStore, modules: {logger?: Logger} = {}): ForkCache {
    return new ForkCache(store, undefined, modules.logger ?? noopLogger);
  }

  /** One more reader of this cache (a source re-forked from another, docs/forking.md §8): each closes it once. */
  retain(): this {
    this.holders++;
    return this;
  }

  /** Writes the values put so far; closes the database once every holder has closed it. */
  async close(): Promise<void> {
    await this.flush();
    if (--this.holders > 0) return;
    await this.level?.close();
  }

  /** Resolves once every value put so far is written (or its batch failed: logged, the values dropped). */
  flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pending.size > 0) {
      const batch = this.pending;
      this.pending = new Map();
      this.written = this.written.then(() => this.writeBatch(batch));
    }
    return this.written;
  }

  async upstream(displayUrl: string): Promise<UpstreamRecord | undefined> {
    const bytes = await this.get(concatBytes(Uint8Array.of(UPSTREAM), utf8ToBytes(displayUrl)));
    if (bytes === undefined) return undefined;
    const json = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
    return {
      chainId: BigInt(json.chainId as string),
      clientVersion: String(json.clientVersion),
      proofs: typeof json.proofs === "boolean" ? json.proofs : undefined,
      pinByNumber: json.pinByNumber === true,
      lastForkHash: typeof json.lastForkHash === "string" ? hexToBytes(json.lastForkHash) : undefined,
    };
  }

  putUpstream(displayUrl: string, record: UpstreamRecord): void {
    const json = {
      chainId: record.chainId.toString(),
      clientVersion: record.clientVersion,
      proofs: record.proofs,
      pinByNumber: record.pinByNumber,
      lastForkHash: record.lastForkHash ? bytesToHex(record.lastForkHash) : undefined,
    };
    this.put(concatBytes(Uint8Array.of(UPSTREAM), utf8ToBytes(displayUrl)), utf8ToBytes(JSON.stringify(json)));
  }

  forkHashAt(chainId: bigint, number: number): Promise<Uint8Array | undefined> {
    return this.get(forkByNumberKey(chainId, number));
  }

  putForkHashAt(chainId: bigint, number: number, hash: Uint8Array): void {
    this.put(forkByNumberKey(chainId, number), hash);
  }

  /** The values of the fork at `forkHash` of chain `chainId`. */
  scope(chainId: bigint, forkHash: Uint8Array): ForkScope {
    return new ForkScope(this, concatBytes(Uint8Array.of(SCOPED), bigIntToFixedBytes(chainId, 32), forkHash));
  }

  /** @internal */
  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const hex = bytesToHex(key);
    const known = this.pending.get(hex)?.[1] ?? this.writing.get(hex)?.[1] ?? this.recent.get(hex);
    if (known !== undefined || this.emptyPrefixes.some((prefix) => hex.startsWith(prefix))) return known;
    const stored = await this.store.get(Bucket.forkCache, key);
    if (stored !== undefined) this.recent.set(hex, stored);
    return stored;
  }

  /** @internal Notes whether the database holds any key under `prefix` (see `get`). */
  async probe(prefix: Uint8Array): Promise<void> {
    const hex = bytesToHex(prefix);
    for await (const [key] of this.store.entries(Bucket.forkCache, {gte: prefix, limit: 1})) {
      if (bytesToHex(key).startsWith(hex)) return;
    }
    this.emptyPrefixes.push(hex);
  }

  /** @internal Puts `value` under `key`: readable at once, written with the next batch. */
  put(key: Uint8Array, value: Uint8Array): void {
    const hex = bytesToHex(key);
    this.pending.set(hex, [key, value]);
    this.recent.set(hex, value);
    if (!this.recent.has(hex)) this.emptyPrefixes = []; // too large to keep: it will be read from the database
    if (this.pending.size >= FLUSH_ENTRIES) void this.flush();
    else this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS).unref();
  }

  /** Writes `batch` as one atomic write; a failure is logged and its values dropped (they are fetched again). */
  private async writeBatch(batch: Map<string, [Uint8Array, Uint8Array]>): Promise<void> {
    this.writing = batch;
    const write = new WriteBatch();
    for (const [key, value] of batch.values()) write.put(Bucket.forkCache, key, value);
    try {
      await this.store.write(write);
    } catch (e) {
      for (const hex of batch.keys()) this.recent.delete(hex);
      this.logger.warn({err: e, values: batch.size}, "the fork cache could not write fetched values: they are dropped");
    } finally {
      this.writing = new Map();
    }
  }
}

/** One fork's values (one chain id and fork block hash). */
export class ForkScope {
  constructor(
    private readonly cache: ForkCache,
    private readonly prefix: Uint8Array,
  ) {}

  /**
   * Notes whether the database holds anything of this fork yet; if not (a first run at this fork block),
   * values missing from memory are not looked for in it (docs/forking.md §1.2).
   */
  probe(): Promise<void> {
    return this.cache.probe(this.prefix);
  }

  async header(): Promise<Record<string, unknown> | undefined> {
    const bytes = await this.cache.get(this.key(HEADER));
    return bytes === undefined ? undefined : (JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>);
  }

  putHeader(json: Record<string, unknown>): void {
    this.cache.put(this.key(HEADER), utf8ToBytes(JSON.stringify(json)));
  }

  async account(address: Uint8Array): Promise<Cached<ForkAccount> | undefined> {
    const bytes = await this.cache.get(this.key(ACCOUNT, address));
    if (bytes === undefined) return undefined;
    const [nonce, balance, codeHash, storageRoot] = RLP.decode(bytes.subarray(1)) as Uint8Array[];
    return {
      value: {
        nonce: bytesToBigInt(nonce as Uint8Array),
        balance: bytesToBigInt(balance as Uint8Array),
        codeHash: codeHash as Uint8Array,
        storageRoot: storageRoot?.length === 32 ? storageRoot : undefined,
      },
      verified: ((bytes[0] as number) & VERIFIED) !== 0,
    };
  }

  putAccount(address: Uint8Array, account: ForkAccount, verified: boolean): void {
    const encoded = RLP.encode([
      bigIntToBytes(account.nonce),
      bigIntToBytes(account.balance),
      account.codeHash,
      account.storageRoot ?? new Uint8Array(0),
    ]);
    this.cache.put(this.key(ACCOUNT, address), concatBytes(Uint8Array.of(verified ? VERIFIED : 0), encoded));
  }

  async storage(address: Uint8Array, slot: Uint8Array): Promise<Cached<Uint8Array> | undefined> {
    const bytes = await this.cache.get(this.key(STORAGE, address, slot));
    return bytes === undefined
      ? undefined
      : {value: bytes.subarray(1), verified: ((bytes[0] as number) & VERIFIED) !== 0};
  }

  putStorage(address: Uint8Array, slot: Uint8Array, value: Uint8Array, verified: boolean): void {
    this.cache.put(this.key(STORAGE, address, slot), concatBytes(Uint8Array.of(verified ? VERIFIED : 0), value));
  }

  code(codeHash: Uint8Array): Promise<Uint8Array | undefined> {
    return this.cache.get(this.key(CODE, codeHash));
  }

  putCode(codeHash: Uint8Array, code: Uint8Array): void {
    this.cache.put(this.key(CODE, codeHash), code);
  }

  blockHash(number: number): Promise<Uint8Array | undefined> {
    return this.cache.get(this.key(BLOCK_HASH, numberKey(number)));
  }

  putBlockHash(number: number, hash: Uint8Array): void {
    this.cache.put(this.key(BLOCK_HASH, numberKey(number)), hash);
  }

  /** The kept result of a forwarded request (docs/forking.md §5), by the hash of its method and parameters. */
  async answer(requestHash: Uint8Array): Promise<unknown> {
    const bytes = await this.cache.get(this.key(ANSWER, requestHash));
    return bytes === undefined ? undefined : JSON.parse(new TextDecoder().decode(bytes));
  }

  putAnswer(requestHash: Uint8Array, result: unknown): void {
    this.cache.put(this.key(ANSWER, requestHash), utf8ToBytes(JSON.stringify(result)));
  }

  storageBytes(address: Uint8Array, key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.cache.get(this.key(STORAGE_BYTES, address, key));
  }

  putStorageBytes(address: Uint8Array, key: Uint8Array, value: Uint8Array): void {
    this.cache.put(this.key(STORAGE_BYTES, address, key), value);
  }

  private key(kind: number, ...parts: Uint8Array[]): Uint8Array {
    return concatBytes(this.prefix, Uint8Array.of(kind), ...parts);
  }
}

function forkByNumberKey(chainId: bigint, number: number): Uint8Array {
  return concatBytes(Uint8Array.of(FORK_BY_NUMBER), bigIntToFixedBytes(chainId, 32), numberKey(number));
}
