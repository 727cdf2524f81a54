import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {buildFixture} from "../../../support/fixture.ts";
import {TestNode} from "../../../support/node.ts";

let node: TestNode;
beforeAll(async () => {
  node = await TestNode.start({
    deps: {
      sync: {
        syncStatus: () => ({startingBlock: 1, currentBlock: 2, highestBlock: 16}),
        onSyncChange: () => () => undefined,
      },
    },
  });
  await buildFixture(node);
});
afterAll(() => node.close());

describe("eth_chainId", () => {
  it("is regtest's 0x21 (docs/protocol/networks.md §1)", async () => {
    expect(await node.result("eth_chainId")).toBe("0x21");
  });
});

describe("eth_protocolVersion", () => {
  it("is 0x3e (docs/protocol/networks.md §1)", async () => {
    expect(await node.result("eth_protocolVersion")).toBe("0x3e");
  });
});

describe("eth_blockNumber", () => {
  it("is the head's number", async () => {
    expect(await node.result("eth_blockNumber")).toBe("0x3");
  });

  it("refuses parameters", async () => {
    expect(await node.error("eth_blockNumber", ["latest"])).toEqual({
      code: -32602,
      message: "too many arguments, want at most 0",
    });
  });
});

describe("eth_gasPrice", () => {
  it("is the best block's minimumGasPrice × 1.1 (docs/protocol/transactions.md): 0 on regtest", async () => {
    expect(await node.result("eth_gasPrice")).toBe("0x0");
  });
});

describe("eth_syncing", () => {
  it("is the sync status object while syncing (docs/rpc.md §2.8)", async () => {
    expect(await node.result("eth_syncing")).toEqual({startingBlock: "0x1", currentBlock: "0x2", highestBlock: "0x10"});
  });

  it("is false on a node that does not sync", async () => {
    const plain = await TestNode.start();
    try {
      expect(await plain.result("eth_syncing")).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
