import {afterAll, beforeAll, describe, expect, it, vi} from "vitest";
import {TestNode} from "../../support/node.ts";

let node: TestNode;
beforeAll(async () => {
  node = await TestNode.start({miner: {}});
});
afterAll(() => node.close());

const head = async () => Number(await node.result("eth_blockNumber"));

describe("evm_mine", () => {
  it("mines one block now and returns null", async () => {
    const before = await head();
    expect(await node.result("evm_mine")).toBeNull();
    expect(await head()).toBe(before + 1);
  });
});

describe("evm_increaseTime", () => {
  it("shifts the miner clock and returns the total shift (docs/protocol/mining-rpc.md §6)", async () => {
    expect(await node.result("evm_increaseTime", ["0xa"])).toBe("0xa");
    expect(await node.result("evm_increaseTime", [5])).toBe("0xf");
    expect((await node.error("evm_increaseTime", [-1])).message).toBe(
      "invalid argument 0 (seconds): expected a non-negative integer",
    );
  });
});

describe("evm_increaseTime after quick mining", () => {
  it("puts the next block an hour after its parent, though the parent is ahead of the clock (docs/rpc.md §4.7)", async () => {
    const fresh = await TestNode.start({miner: {}});
    try {
      // Ten blocks in well under ten seconds: the parent + 1 rule puts the head ahead of the wall clock.
      for (let i = 0; i < 10; i++) await fresh.result("evm_mine");
      const parent = await fresh.result("eth_getBlockByNumber", ["latest", false]);
      expect(Number(parent.timestamp)).toBeGreaterThan(Math.floor(Date.now() / 1000));
      await fresh.result("evm_increaseTime", [3_600]);
      await fresh.result("evm_mine");
      const block = await fresh.result("eth_getBlockByNumber", ["latest", false]);
      expect(Number(block.timestamp)).toBeGreaterThanOrEqual(Number(parent.timestamp) + 3_600);
    } finally {
      await fresh.close();
    }
  });
});

describe("evm_increaseTime past the latest block timestamp", () => {
  it("is refused with -32602 and evm_mine goes on", async () => {
    expect(await node.error("evm_increaseTime", ["0x1fffffffffffff"])).toEqual({
      code: -32602,
      message: `cannot shift the clock by ${0x1fffffffffffff} seconds: block timestamps would pass 4294967295, the latest a block can carry`,
    });
    expect(await node.result("evm_mine")).toBeNull();
  });
});

describe("evm_snapshot", () => {
  it("returns an id that evm_revert goes back to", async () => {
    const id = await node.result("evm_snapshot");
    expect(id).toMatch(/^0x[1-9a-f][0-9a-f]*$/);
    const at = await head();
    await node.result("evm_mine");
    await node.result("evm_mine");
    expect(await head()).toBe(at + 2);
    expect(await node.result("evm_revert", [id])).toBe(true);
    expect(await head()).toBe(at);
  });
});

describe("evm_revert", () => {
  it("is false for an unknown snapshot", async () => {
    expect(await node.result("evm_revert", ["0x99"])).toBe(false);
  });

  it("takes back the transactions sent after the snapshot: the automining miner does not mine them again", async () => {
    const mining = await TestNode.start({miner: {enabled: true, autoMine: true, pendingDebounceMs: 0}});
    try {
      const [from] = await mining.result("eth_accounts");
      const to = `0x${"ab".repeat(20)}`;
      const id = await mining.result("evm_snapshot");
      const at = Number(await mining.result("eth_blockNumber"));
      const hash = await mining.result("eth_sendTransaction", [{from, to, value: "0x1"}]);
      await vi.waitFor(async () => expect(await mining.result("eth_getTransactionReceipt", [hash])).not.toBeNull(), {
        timeout: 20_000,
      });
      expect(await mining.result("evm_revert", [id])).toBe(true);
      // Give the miner the time to mine anything it was handed back.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(Number(await mining.result("eth_blockNumber"))).toBe(at);
      expect(await mining.result("eth_getTransactionReceipt", [hash])).toBeNull();
      expect(await mining.result("eth_getTransactionByHash", [hash])).toBeNull();
      expect(await mining.result("eth_getBalance", [to, "latest"])).toBe("0x0");
      expect(await mining.result("eth_getTransactionCount", [from, "pending"])).toBe(
        await mining.result("eth_getTransactionCount", [from, "latest"]),
      );
    } finally {
      await mining.close();
    }
  });
});

describe("evm_reset", () => {
  it("goes back to genesis and returns null", async () => {
    await node.result("evm_mine");
    expect(await node.result("evm_reset")).toBeNull();
    expect(await head()).toBe(0);
  });
});

describe("evm_startMining", () => {
  it("starts the built-in miner; evm_stopMining stops it", async () => {
    expect(await node.result("evm_startMining")).toBeNull();
    expect(await node.result("eth_mining")).toBe(true);
    expect(await node.result("evm_stopMining")).toBeNull();
    expect(await node.result("eth_mining")).toBe(false);
  });
});

describe("evm_stopMining", () => {
  it("is refused with -32602 where the miner's controls are off", async () => {
    const locked = await TestNode.start({miner: {devControls: false}});
    try {
      const error = await locked.error("evm_stopMining");
      expect(error.code).toBe(-32602);
    } finally {
      await locked.close();
    }
  });
});
