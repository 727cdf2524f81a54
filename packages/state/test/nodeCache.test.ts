import {describe, expect, it} from "vitest";
import {StateErrorCode} from "../src/index.ts";
import {NODE_CACHE_ENTRY_OVERHEAD, NodeCache} from "../src/nodeCache.ts";
import {TrieNodeStore} from "../src/nodeStore.ts";
import {ReadOnlyTrieDB} from "../src/readOnlyDb.ts";
import {openStore} from "./helpers.ts";

const value = (n: number) => new Uint8Array(100).fill(n);

describe("NodeCache", () => {
  const entry = 100 + NODE_CACHE_ENTRY_OVERHEAD;

  it("drops the entries not used for two generations and keeps within its budget", () => {
    const cache = new NodeCache(4 * entry);
    cache.set("a", value(1));
    cache.set("b", value(2));
    cache.set("c", value(3));
    expect(cache.get("a")).toEqual(value(1));
    cache.set("d", value(4));
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("c")).toEqual(value(3));
    expect(cache.get("d")).toEqual(value(4));
    const stats = cache.stats();
    expect(stats).toMatchObject({hits: 3, misses: 1, maxBytes: 4 * entry});
    expect(stats.bytes).toBeLessThanOrEqual(4 * entry);
  });

  it("caches nothing with a zero budget", () => {
    const cache = new NodeCache(0);
    cache.set("a", value(1));
    expect(cache.get("a")).toBeUndefined();
    expect(cache.stats().entries).toBe(0);
  });
});

describe("ReadOnlyTrieDB over the node store", () => {
  it("refuses writes and reports a missing entry (other than the empty-trie root) as NODE_MISSING", async () => {
    const db = new ReadOnlyTrieDB(new TrieNodeStore(await openStore(), new NodeCache(0)));
    await expect(db.put()).rejects.toMatchObject({code: StateErrorCode.READ_ONLY, type: {operation: "put"}});
    await expect(db.batch()).rejects.toMatchObject({code: StateErrorCode.READ_ONLY});
    expect(await db.get("56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421")).toBeUndefined();
    await expect(db.get("00".repeat(32))).rejects.toMatchObject({code: StateErrorCode.NODE_MISSING});
    await expect(db.get(`63${"00".repeat(32)}`)).rejects.toMatchObject({code: StateErrorCode.NODE_MISSING});
  });
});
