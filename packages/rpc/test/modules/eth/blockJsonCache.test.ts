import {describe, expect, it} from "vitest";
import {BlockJsonCache} from "../../../src/caches/blockJsonCache.ts";
import {RawJson} from "../../../src/jsonrpc/rawJson.ts";

describe("BlockJsonCache", () => {
  const json = (bytes: number) => new RawJson(Buffer.alloc(bytes, 0x20));
  const hash = (i: number) => BlockJsonCache.key(new Uint8Array(32).fill(i), true);

  it("keeps within its byte budget, the least recently used dropped first", () => {
    const cache = new BlockJsonCache(10_000);
    for (let i = 0; i < 10; i++) cache.set(hash(i), json(2_000));
    expect(cache.stats().bytes).toBeLessThanOrEqual(10_000);
    expect(cache.get(hash(9))).toBeDefined();
    expect(cache.get(hash(0))).toBeUndefined();
    // The forms are distinct entries.
    expect(cache.get(BlockJsonCache.key(new Uint8Array(32).fill(9), false))).toBeUndefined();
  });

  it("keeps no block larger than a quarter of the budget, and nothing with a budget of 0", () => {
    const cache = new BlockJsonCache(10_000);
    cache.set(hash(1), json(3_000));
    expect(cache.get(hash(1))).toBeUndefined();
    const none = new BlockJsonCache(0);
    none.set(hash(1), json(10));
    expect(none.get(hash(1))).toBeUndefined();
    expect(none.stats()).toEqual({hits: 0, misses: 1, entries: 0, bytes: 0});
  });
});
