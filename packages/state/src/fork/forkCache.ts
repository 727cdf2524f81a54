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
  utf8ToBytes,
} from "@xchain/utils";
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

export class ForkCache {
  /** The sources reading this cache (`retain`): the database closes when the last one closes it. */
  private holders = 1;

  private constructor(
    private readonly store: KeyValueStore,
    private readonly level: LevelStore | undefined,
  ) {}

  /** The cache in `dir` (created if missing); another process holding it fails with the db's LOCKED. */
  static async open(dir: string, modules: {logger?: Logger} = {}): Promise<ForkCache> {
    const level = await LevelStore.open(dir, {}, modules);
    return new ForkCache(level, level);
  }

  /** A cache over `store` (a `MemoryStore` in tests). */
  static over(store: KeyValueStore): ForkCache {
    return new ForkCache(store, undefined);
  }

  /** One more reader of this cache (a source re-forked from another, docs/forking.md §8): each closes it once. */
  retain(): this {
    this.holders++;
    return this;
  }

  /** Closes the database once every holder has closed it. */
  async close(): Promise<void> {
    if (--this.holders > 0) return;
    await this.level?.close();
  }

  async upstream(displayUrl: string): Promise<UpstreamRecord | undefined> {
    const bytes = await this.store.get(Bucket.forkCache, concatBytes(Uint8Array.of(UPSTREAM), utf8ToBytes(displayUrl)));
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

  async putUpstream(displayUrl: string, record: UpstreamRecord): Promise<void> {
    const json = {
      chainId: record.chainId.toString(),
      clientVersion: record.clientVersion,
      proofs: record.proofs,
      pinByNumber: record.pinByNumber,
      lastForkHash: record.lastForkHash ? bytesToHex(record.lastForkHash) : undefined,
    };
    await this.put(concatBytes(Uint8Array.of(UPSTREAM), utf8ToBytes(displayUrl)), utf8ToBytes(JSON.stringify(json)));
  }

  async forkHashAt(chainId: bigint, number: number): Promise<Uint8Array | undefined> {
    return this.store.get(Bucket.forkCache, forkByNumberKey(chainId, number));
  }

  async putForkHashAt(chainId: bigint, number: number, hash: Uint8Array): Promise<void> {
    await this.put(forkByNumberKey(chainId, number), hash);
  }

  /** The values of the fork at `forkHash` of chain `chainId`. */
  scope(chainId: bigint, forkHash: Uint8Array): ForkScope {
    return new ForkScope(this, concatBytes(Uint8Array.of(SCOPED), bigIntToFixedBytes(chainId, 32), forkHash));
  }

  /** @internal */
  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.store.get(Bucket.forkCache, key);
  }

  /** @internal */
  async put(key: Uint8Array, value: Uint8Array): Promise<void> {
    await this.store.write(new WriteBatch().put(Bucket.forkCache, key, value));
  }
}

/** One fork's values (one chain id and fork block hash). */
export class ForkScope {
  constructor(
    private readonly cache: ForkCache,
    private readonly prefix: Uint8Array,
  ) {}

  async header(): Promise<Record<string, unknown> | undefined> {
    const bytes = await this.cache.get(this.key(HEADER));
    return bytes === undefined ? undefined : (JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>);
  }

  putHeader(json: Record<string, unknown>): Promise<void> {
    return this.cache.put(this.key(HEADER), utf8ToBytes(JSON.stringify(json)));
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

  putAccount(address: Uint8Array, account: ForkAccount, verified: boolean): Promise<void> {
    const encoded = RLP.encode([
      bigIntToBytes(account.nonce),
      bigIntToBytes(account.balance),
      account.codeHash,
      account.storageRoot ?? new Uint8Array(0),
    ]);
    return this.cache.put(this.key(ACCOUNT, address), concatBytes(Uint8Array.of(verified ? VERIFIED : 0), encoded));
  }

  async storage(address: Uint8Array, slot: Uint8Array): Promise<Cached<Uint8Array> | undefined> {
    const bytes = await this.cache.get(this.key(STORAGE, address, slot));
    return bytes === undefined
      ? undefined
      : {value: bytes.subarray(1), verified: ((bytes[0] as number) & VERIFIED) !== 0};
  }

  putStorage(address: Uint8Array, slot: Uint8Array, value: Uint8Array, verified: boolean): Promise<void> {
    return this.cache.put(this.key(STORAGE, address, slot), concatBytes(Uint8Array.of(verified ? VERIFIED : 0), value));
  }

  code(codeHash: Uint8Array): Promise<Uint8Array | undefined> {
    return this.cache.get(this.key(CODE, codeHash));
  }

  putCode(codeHash: Uint8Array, code: Uint8Array): Promise<void> {
    return this.cache.put(this.key(CODE, codeHash), code);
  }

  blockHash(number: number): Promise<Uint8Array | undefined> {
    return this.cache.get(this.key(BLOCK_HASH, numberKey(number)));
  }

  putBlockHash(number: number, hash: Uint8Array): Promise<void> {
    return this.cache.put(this.key(BLOCK_HASH, numberKey(number)), hash);
  }

  /** The kept result of a forwarded request (docs/forking.md §5), by the hash of its method and parameters. */
  async answer(requestHash: Uint8Array): Promise<unknown> {
    const bytes = await this.cache.get(this.key(ANSWER, requestHash));
    return bytes === undefined ? undefined : JSON.parse(new TextDecoder().decode(bytes));
  }

  putAnswer(requestHash: Uint8Array, result: unknown): Promise<void> {
    return this.cache.put(this.key(ANSWER, requestHash), utf8ToBytes(JSON.stringify(result)));
  }

  storageBytes(address: Uint8Array, key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.cache.get(this.key(STORAGE_BYTES, address, key));
  }

  putStorageBytes(address: Uint8Array, key: Uint8Array, value: Uint8Array): Promise<void> {
    return this.cache.put(this.key(STORAGE_BYTES, address, key), value);
  }

  private key(kind: number, ...parts: Uint8Array[]): Uint8Array {
    return concatBytes(this.prefix, Uint8Array.of(kind), ...parts);
  }
}

function forkByNumberKey(chainId: bigint, number: number): Uint8Array {
  return concatBytes(Uint8Array.of(FORK_BY_NUMBER), bigIntToFixedBytes(chainId, 32), numberKey(number));
}
