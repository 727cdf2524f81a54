/**
 * The fork cache's records (docs/forking.md §1.2) over a MemoryStore: what is written is read back, per fork;
 * its writes behind the reads, in batches, flushed on close; a store's failed write; forks it held nothing of.
 */
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {type Bucket, MemoryStore, type WriteBatch} from "@xchain/db";
import {type Logger, noopLogger} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {ForkCache} from "../../src/fork/forkCache.ts";
import {EMPTY_TRIE_ROOT} from "../../src/index.ts";
import {EMPTY_CODE_HASH} from "../../src/trie.ts";

const HASH_A = new Uint8Array(32).fill(0xa);
const HASH_B = new Uint8Array(32).fill(0xb);
const ADDRESS = new Uint8Array(20).fill(1);
const SLOT = new Uint8Array(32).fill(2);

describe("ForkCache", () => {
  it("keeps the upstream's record by its redacted URL", async () => {
    const cache = ForkCache.over(new MemoryStore());
    expect(await cache.upstream("http://127.0.0.1:4444")).toBeUndefined();
    const record = {
      chainId: 2n ** 63n + 1n,
      clientVersion: "RskJ/6.4.0",
      proofs: false,
      pinByNumber: true,
      lastForkHash: HASH_A,
    };
    await cache.putUpstream("http://127.0.0.1:4444", record);
    expect(await cache.upstream("http://127.0.0.1:4444")).toEqual(record);
    await cache.putForkHashAt(record.chainId, 100, HASH_A);
    expect(await cache.forkHashAt(record.chainId, 100)).toEqual(HASH_A);
    expect(await cache.forkHashAt(record.chainId - 1n, 100)).toBeUndefined();
  });

  it("keeps accounts, slots, code, block hashes and the header apart per chain id and fork block", async () => {
    const cache = ForkCache.over(new MemoryStore());
    const scope = cache.scope(31n, HASH_A);
    const account = {nonce: 3n, balance: 10n ** 20n, codeHash: EMPTY_CODE_HASH, storageRoot: EMPTY_TRIE_ROOT};
    await scope.putAccount(ADDRESS, account, true);
    await scope.putStorage(ADDRESS, SLOT, new Uint8Array(32).fill(9), false);
    await scope.putCode(HASH_B, Uint8Array.of(0x60, 0x00));
    await scope.putBlockHash(7, HASH_B);
    await scope.putHeader({number: "0x8", hash: "0xaa"});
    expect(await scope.account(ADDRESS)).toEqual({value: account, verified: true});
    expect(await scope.storage(ADDRESS, SLOT)).toEqual({value: new Uint8Array(32).fill(9), verified: false});
    expect(await scope.code(HASH_B)).toEqual(Uint8Array.of(0x60, 0x00));
    expect(await scope.blockHash(7)).toEqual(HASH_B);
    expect(await scope.header()).toEqual({number: "0x8", hash: "0xaa"});

    const unverified = {...account, storageRoot: undefined};
    await scope.putAccount(ADDRESS, unverified, false);
    expect(await scope.account(ADDRESS)).toEqual({value: unverified, verified: false});

    for (const other of [cache.scope(30n, HASH_A), cache.scope(31n, HASH_B)]) {
      expect(await other.account(ADDRESS)).toBeUndefined();
      expect(await other.storage(ADDRESS, SLOT)).toBeUndefined();
      expect(await other.blockHash(7)).toBeUndefined();
      expect(await other.header()).toBeUndefined();
    }
  });
});

/** A MemoryStore that counts its reads and whose writes can be made to fail. */
class WatchedStore extends MemoryStore {
  reads = 0;
  writes = 0;
  failWrites = false;
  override async get(bucket: Bucket, key: Uint8Array): Promise<Uint8Array | undefined> {
    this.reads++;
    return super.get(bucket, key);
  }
  override async write(batch: WriteBatch): Promise<void> {
    if (this.failWrites) throw new Error("disk full");
    this.writes++;
    return super.write(batch);
  }
}

const WORD = new Uint8Array(32).fill(9);
const slot = (i: number): Uint8Array => {
  const s = new Uint8Array(32);
  new DataView(s.buffer).setUint32(28, i);
  return s;
};

describe("ForkCache's writes behind its reads (docs/forking.md §1.2)", () => {
  it("reads a value put at once, writes the values put in one batch, and the rest on close", async () => {
    const store = new WatchedStore();
    const cache = ForkCache.over(store);
    const scope = cache.scope(31n, HASH_A);
    for (let i = 0; i < 10; i++) scope.putStorage(ADDRESS, slot(i), WORD, true);
    expect(await scope.storage(ADDRESS, slot(3))).toEqual({value: WORD, verified: true});
    expect([store.writes, store.size]).toEqual([0, 0]);
    await cache.flush();
    expect([store.writes, store.size]).toEqual([1, 10]);
    scope.putCode(HASH_B, Uint8Array.of(0x60, 0x00));
    await cache.close();
    expect([store.writes, store.size]).toEqual([2, 11]);
    const again = ForkCache.over(store).scope(31n, HASH_A);
    expect(await again.code(HASH_B)).toEqual(Uint8Array.of(0x60, 0x00));
    expect(await again.storage(ADDRESS, slot(9))).toEqual({value: WORD, verified: true});
  });

  it("keeps what it wrote on disk across a reopen of its LevelDB", async () => {
    const dir = mkdtempSync(join(tmpdir(), "xchain-fork-cache-"));
    const cache = await ForkCache.open(dir);
    const scope = cache.scope(31n, HASH_A);
    for (let i = 0; i < 600; i++) scope.putStorage(ADDRESS, slot(i), WORD, true);
    scope.putBlockHash(7, HASH_B);
    await cache.close();
    const reopened = await ForkCache.open(dir);
    const again = reopened.scope(31n, HASH_A);
    await again.probe();
    expect(await again.storage(ADDRESS, slot(599))).toEqual({value: WORD, verified: true});
    expect(await again.blockHash(7)).toEqual(HASH_B);
    await reopened.close();
  });

  it("drops, and logs, the values of a batch the store refused: they are read as missing, nothing throws", async () => {
    const store = new WatchedStore();
    const warnings: string[] = [];
    const logger = {...noopLogger, warn: (_: object, message: string) => void warnings.push(message)};
    const cache = ForkCache.over(store, {logger: logger as Logger});
    const scope = cache.scope(31n, HASH_A);
    store.failWrites = true;
    scope.putBlockHash(7, HASH_B);
    await cache.flush();
    expect(warnings).toEqual(["the fork cache could not write fetched values: they are dropped"]);
    expect(await scope.blockHash(7)).toBeUndefined();
    store.failWrites = false;
    scope.putBlockHash(8, HASH_B);
    await cache.close();
    expect(await ForkCache.over(store).scope(31n, HASH_A).blockHash(8)).toEqual(HASH_B);
  });

  it("reads no missing value of a fork its store held nothing of, until a value put leaves the memory", async () => {
    const store = new WatchedStore();
    const cache = ForkCache.over(store);
    const held = cache.scope(31n, HASH_B);
    held.putBlockHash(1, HASH_A);
    await cache.flush();
    await held.probe();
    const fresh = cache.scope(31n, HASH_A);
    await fresh.probe();
    store.reads = 0;
    expect(await fresh.storage(ADDRESS, slot(1))).toBeUndefined();
    expect(store.reads).toBe(0);
    expect(await held.blockHash(2)).toBeUndefined();
    expect(store.reads).toBe(1);

    // 700 codes of 24 KiB are more than the memory keeps: the first ones leave it, and are read from the store.
    const code = (i: number) => new Uint8Array(24 * 1024).fill(i % 251);
    const hashOf = (i: number) => slot(i);
    for (let i = 0; i < 700; i++) fresh.putCode(hashOf(i), code(i));
    await cache.flush();
    store.reads = 0;
    expect(await fresh.code(hashOf(0))).toEqual(code(0));
    expect(store.reads).toBe(1);
    expect(await fresh.storage(ADDRESS, slot(1))).toBeUndefined();
    expect(store.reads).toBe(2);
  });
});
