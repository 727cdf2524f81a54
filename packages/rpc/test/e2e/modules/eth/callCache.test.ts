import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import type {RequestContext} from "../../../../src/jsonrpc/registry.ts";
import {cows, TestNode} from "../../../support/node.ts";

/** Returns NUMBER as a word: its answer depends on the block the call runs at. */
const NUMBER = "0x4360005260206000f3";
/** Reverts with no data. */
const REVERT = "0x60006000fd";

let node: TestNode;
beforeAll(async () => {
  node = await TestNode.start();
});
afterAll(() => node.close());

const stats = () => node.server.callCacheStats();

describe("the eth_call answer cache (docs/rpc.md §4.4)", () => {
  it("answers a repeated call at the same block from the cache, and a call at a new head by running it", async () => {
    const before = stats();
    const first = await node.result("eth_call", [{data: NUMBER}, "latest"]);
    expect(await node.result("eth_call", [{data: NUMBER}, "latest"])).toBe(first);
    expect(stats().hits).toBe(before.hits + 1);
    expect(stats().misses).toBe(before.misses + 1);
    // The tag names another block once the head moves: the key is the block hash, never the tag.
    await node.mine();
    const next = await node.result("eth_call", [{data: NUMBER}, "latest"]);
    expect(BigInt(next)).toBe(BigInt(first) + 1n);
    expect(stats().misses).toBe(before.misses + 2);
  });

  it("answers a kept call at the head at once: the handler returns the answer, not a promise", async () => {
    const found = node.server.registry.lookup("eth_call");
    if (found.kind !== "enabled") throw new Error("eth_call is not served");
    const context = {transport: "http", client: {address: "127.0.0.1", connectionId: 1, key: "t"}} as RequestContext;
    const params = [{data: NUMBER, gas: "0x20000"}, "latest"];
    const first = await found.method.invoke(params, context);
    const again = found.method.invoke(params, context);
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toBe(first);
    // Not at the head (a number): the header is looked up first, so the answer comes as a promise.
    const atNumber = found.method.invoke([params[0], await node.result("eth_blockNumber", [])], context);
    expect(atNumber).toBeInstanceOf(Promise);
    expect(await atNumber).toBe(first);
  });

  it("keys on every call field: another sender or gas is another entry", async () => {
    const before = stats();
    await node.result("eth_call", [{data: NUMBER, from: toData(cows[0]!.address)}, "latest"]);
    await node.result("eth_call", [{data: NUMBER, from: toData(cows[1]!.address)}, "latest"]);
    await node.result("eth_call", [{data: NUMBER, from: toData(cows[1]!.address), gas: "0x10000"}, "latest"]);
    expect(stats().misses).toBe(before.misses + 3);
    expect(stats().hits).toBe(before.hits);
  });

  it("keeps a revert as its error", async () => {
    const first = await node.error("eth_call", [{data: REVERT}, "latest"]);
    const before = stats();
    expect(await node.error("eth_call", [{data: REVERT}, "latest"])).toEqual(first);
    expect(stats().hits).toBe(before.hits + 1);
  });

  it("never keeps a call with a state override", async () => {
    const override = {[toData(cows[2]!.address)]: {balance: "0x1"}};
    await node.result("eth_call", [{data: NUMBER}, "latest", override]);
    const before = stats();
    await node.result("eth_call", [{data: NUMBER}, "latest", override]);
    expect(stats()).toMatchObject({hits: before.hits, misses: before.misses});
  });
});

describe("the eth_call answer cache after a dev state edit", () => {
  /** Answers its storage slot 0. */
  const SLOT0 = "0x60005460005260206000f3";
  const CONTRACT = `0x${"c0".repeat(20)}`;

  it("does not answer from before an edit of the head's state: the same block hash, another state", async () => {
    const dev = await TestNode.start({miner: {}});
    try {
      expect(await dev.result("anvil_setCode", [CONTRACT, SLOT0])).toBe(null);
      const word = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
      expect(await dev.result("eth_call", [{to: CONTRACT}, "latest"])).toBe(word(0));
      expect(await dev.result("anvil_setStorageAt", [CONTRACT, "0x0", word(5)])).toBe(true);
      expect(await dev.result("eth_call", [{to: CONTRACT}, "latest"])).toBe(word(5));
      expect(await dev.result("eth_getStorageAt", [CONTRACT, "0x0", "latest"])).toBe(word(5));
    } finally {
      await dev.close();
    }
  });
});
