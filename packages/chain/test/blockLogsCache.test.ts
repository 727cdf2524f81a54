/** The decoded logs of recent blocks, by hash: loaded once, then served from memory. */
import {describe, expect, it, vi} from "vitest";
import {defaultChainOptions} from "../src/options.ts";
import {BlockLogsCache} from "../src/store/blockLogsCache.ts";
import type {LogWithContext} from "../src/types.ts";

const hash = (n: number) => new Uint8Array(32).fill(n);

function logsOf(n: number, count = 2): LogWithContext[] {
  return Array.from({length: count}, (_, i) => ({
    log: {address: new Uint8Array(20).fill(n), topics: [], data: Uint8Array.of(i)},
    blockHash: hash(n),
    blockNumber: n,
    transactionHash: new Uint8Array(32).fill(i),
    transactionIndex: i,
    logIndex: i,
    removed: false,
  }));
}

describe("BlockLogsCache", () => {
  it("loads a block's logs once, then serves them from the cache", async () => {
    const cache = new BlockLogsCache(defaultChainOptions.logCacheSize);
    const logs = logsOf(1);
    const load = vi.fn(async () => logs);
    expect(await cache.get(hash(1), load)).toBe(logs);
    expect(await cache.get(hash(1), load)).toBe(logs);
    // An equal hash in another array is the same key.
    expect(await cache.get(Uint8Array.from(hash(1)), load)).toBe(logs);
    expect(load).toHaveBeenCalledTimes(1);
    // A cached block does not call the loader it is given.
    const other = vi.fn(async () => logsOf(9));
    expect(await cache.get(hash(1), other)).toBe(logs);
    expect(other).not.toHaveBeenCalled();
  });

  it("does not cache a load that found nothing", async () => {
    const cache = new BlockLogsCache(defaultChainOptions.logCacheSize);
    const logs = logsOf(2);
    const load = vi.fn(async (): Promise<readonly LogWithContext[] | undefined> => undefined);
    expect(await cache.get(hash(2), load)).toBeUndefined();
    expect(await cache.get(hash(2), load)).toBeUndefined();
    expect(load).toHaveBeenCalledTimes(2);
    load.mockImplementation(async () => logs);
    expect(await cache.get(hash(2), load)).toBe(logs);
    expect(await cache.get(hash(2), load)).toBe(logs);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it("caches a block without logs", async () => {
    const cache = new BlockLogsCache(defaultChainOptions.logCacheSize);
    const load = vi.fn(async () => []);
    expect(await cache.get(hash(3), load)).toEqual([]);
    expect(await cache.get(hash(3), load)).toEqual([]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("keeps different block hashes apart", async () => {
    const cache = new BlockLogsCache(defaultChainOptions.logCacheSize);
    const a = logsOf(4);
    const b = logsOf(5, 3);
    const loadA = vi.fn(async () => a);
    const loadB = vi.fn(async () => b);
    expect(await cache.get(hash(4), loadA)).toBe(a);
    expect(await cache.get(hash(5), loadB)).toBe(b);
    expect(await cache.get(hash(4), loadB)).toBe(a);
    expect(await cache.get(hash(5), loadA)).toBe(b);
    expect(loadA).toHaveBeenCalledTimes(1);
    expect(loadB).toHaveBeenCalledTimes(1);

    // Hashes that differ only in their last byte.
    const low = hash(7);
    const high = hash(7);
    high[31] = 8;
    const c = logsOf(7, 1);
    expect(await cache.get(low, async () => c)).toBe(c);
    const loadHigh = vi.fn(async () => b);
    expect(await cache.get(high, loadHigh)).toBe(b);
    expect(loadHigh).toHaveBeenCalledTimes(1);
    expect(await cache.get(low, loadHigh)).toBe(c);
  });

  it("returns but does not keep a block with more logs than the whole cache holds", async () => {
    const cache = new BlockLogsCache(defaultChainOptions.logCacheSize);
    const [one] = logsOf(6, 1);
    const huge = Array.from({length: defaultChainOptions.logCacheSize + 1}, () => one!);
    const load = vi.fn(async () => huge);
    expect(await cache.get(hash(6), load)).toBe(huge);
    expect(await cache.get(hash(6), load)).toBe(huge);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
