/** The decoded logs of recent blocks, by hash: loaded once, then served from memory. */
import {describe, expect, it, vi} from "vitest";
import {defaultChainOptions} from "../src/options.ts";
import {BlockLogsCache, blockLogsBytes} from "../src/store/blockLogsCache.ts";
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
    const cache = new BlockLogsCache(defaultChainOptions.logCacheMb * 2 ** 20);
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
    const cache = new BlockLogsCache(defaultChainOptions.logCacheMb * 2 ** 20);
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
    const cache = new BlockLogsCache(defaultChainOptions.logCacheMb * 2 ** 20);
    const load = vi.fn(async () => []);
    expect(await cache.get(hash(3), load)).toEqual([]);
    expect(await cache.get(hash(3), load)).toEqual([]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("keeps different block hashes apart", async () => {
    const cache = new BlockLogsCache(defaultChainOptions.logCacheMb * 2 ** 20);
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

  it("returns but does not keep a block whose logs take more than the whole cache", async () => {
    const [one] = logsOf(6, 1);
    const huge = Array.from({length: 1000}, () => one!);
    const cache = new BlockLogsCache(blockLogsBytes(huge) - 1);
    const load = vi.fn(async () => huge);
    expect(await cache.get(hash(6), load)).toBe(huge);
    expect(await cache.get(hash(6), load)).toBe(huge);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("holds at most its byte budget, dropping the least recently used blocks", async () => {
    const perBlock = blockLogsBytes(logsOf(0, 10));
    const cache = new BlockLogsCache(perBlock * 3);
    for (let n = 1; n <= 5; n++) await cache.get(hash(n), async () => logsOf(n, 10));
    expect(cache.bytes()).toBe(perBlock * 3);
    const load = vi.fn(async () => logsOf(1, 10));
    await cache.get(hash(1), load);
    await cache.get(hash(5), load);
    // Block 1 was dropped (and loaded again), block 5 was kept.
    expect(load).toHaveBeenCalledTimes(1);
    expect(cache.bytes()).toBeLessThanOrEqual(perBlock * 3);
  });

  it("keeps nothing with a zero budget", async () => {
    const cache = new BlockLogsCache(0);
    const load = vi.fn(async () => logsOf(1));
    await cache.get(hash(1), load);
    await cache.get(hash(1), load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(cache.bytes()).toBe(0);
  });

  it("counts a log's topics and data in its estimate", () => {
    const [plain] = logsOf(1, 1);
    const rich = {...plain!, log: {...plain!.log, topics: [hash(1), hash(2)], data: new Uint8Array(100)}};
    expect(blockLogsBytes([rich]) - blockLogsBytes([plain!])).toBeGreaterThanOrEqual(2 * 32 + 99);
  });
});
