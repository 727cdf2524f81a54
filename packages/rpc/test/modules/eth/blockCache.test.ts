import {getChainspec} from "@xchain/chainspec";
import {toData, toQuantity} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {BlockJsonCache} from "../../../src/caches/blockJsonCache.ts";
import {formatBlock} from "../../../src/format/block.ts";
import {RawJson} from "../../../src/jsonrpc/rawJson.ts";
import {useFixtureNode} from "../../support/fixture.ts";
import {reorganize} from "../../support/reorg.ts";

const shared = useFixtureNode();
const stats = () => shared.node.server.blockCacheStats();

/** The block object formatted afresh, as JSON gives it back. */
async function fresh(hash: Uint8Array, full: boolean): Promise<unknown> {
  const {node} = shared;
  const block = await node.chain.getBlock(hash);
  if (!block) throw new Error("no such block");
  const json = formatBlock(block, await node.chain.getTotalDifficulty(hash), full, getChainspec("regtest"));
  return JSON.parse(JSON.stringify(json));
}

describe("the formatted-block cache (docs/rpc.md §4.3)", () => {
  it("formats a block once per form and answers it again from the cache, by number, tag or hash", async () => {
    const {node, fixture} = shared;
    const block = fixture.blocks[2];
    const hash = toData(block.hash());
    const before = stats();
    for (const full of [true, false]) {
      const first = await node.result("eth_getBlockByNumber", ["0x3", full]);
      expect(first).toEqual(await fresh(block.hash(), full));
      expect(await node.result("eth_getBlockByNumber", ["0x3", full])).toEqual(first);
      expect(await node.result("eth_getBlockByNumber", ["latest", full])).toEqual(first);
      expect(await node.result("eth_getBlockByHash", [hash, full])).toEqual(first);
    }
    // One miss per form, then hits.
    expect(stats().misses - before.misses).toBe(2);
    expect(stats().hits - before.hits).toBe(6);
    expect(stats().entries).toBeGreaterThanOrEqual(2);
  });

  it("follows a reorganization: a number names the new block, the old hash still answers the old one", async () => {
    const {node, fixture} = shared;
    const old = fixture.blocks[2];
    const oldFull = await node.result("eth_getBlockByNumber", ["0x3", true]);
    expect(oldFull.hash).toBe(toData(old.hash()));
    const {f3} = await reorganize(node, fixture);
    const now = await node.result("eth_getBlockByNumber", ["0x3", true]);
    expect(now).toEqual(await fresh(f3.hash(), true));
    expect(now.hash).toBe(toData(f3.hash()));
    // The block that left the chain is still stored and still the same object, total difficulty included.
    expect(await node.result("eth_getBlockByHash", [toData(old.hash()), true])).toEqual(oldFull);
    expect((await node.result("eth_getBlockByNumber", ["latest", false])).number).toBe(toQuantity(4));
  });

  it("is null for a number above the head and an unknown hash", async () => {
    const {node} = shared;
    expect(await node.result("eth_getBlockByNumber", ["0x64", true])).toBeNull();
    expect(await node.result("eth_getBlockByHash", [`0x${"33".repeat(32)}`, true])).toBeNull();
  });
});

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
