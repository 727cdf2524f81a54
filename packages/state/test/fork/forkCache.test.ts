/** The fork cache's records (docs/forking.md §1.2) over a MemoryStore: what is written is read back, per fork. */
import {MemoryStore} from "@xchain/db";
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
