import type {Block} from "@xchain/primitives";
import {toData, toQuantity} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {TestNode} from "../../../support/node.ts";

let node: TestNode;
let sibling: Block;
let b2: Block;
beforeAll(async () => {
  node = await TestNode.start();
  const b1 = await node.mine();
  sibling = await node.builder.buildBlock({parent: node.builder.genesis, extraData: Uint8Array.of(1)});
  b2 = await node.mine({parent: b1, uncles: [sibling.header]});
});
afterAll(() => node.close());

describe("eth_getUncleCountByBlockHash", () => {
  it("counts the uncles; null for an unknown block", async () => {
    expect(await node.result("eth_getUncleCountByBlockHash", [toData(b2.hash())])).toBe("0x1");
    expect(await node.result("eth_getUncleCountByBlockHash", [`0x${"44".repeat(32)}`])).toBeNull();
  });
});

describe("eth_getUncleCountByBlockNumber", () => {
  it("counts the uncles of a number or tag", async () => {
    expect(await node.result("eth_getUncleCountByBlockNumber", ["0x2"])).toBe("0x1");
    expect(await node.result("eth_getUncleCountByBlockNumber", ["0x1"])).toBe("0x0");
  });
});

describe("eth_getUncleByBlockHashAndIndex", () => {
  it("shows the uncle in the block shape without transactions (docs/rpc.md §2.3)", async () => {
    const uncle = await node.result("eth_getUncleByBlockHashAndIndex", [toData(b2.hash()), "0x0"]);
    expect(uncle).toMatchObject({
      number: "0x1",
      hash: toData(sibling.hash()),
      extraData: "0x01",
      transactions: [],
      uncles: [],
      difficulty: toQuantity(sibling.header.difficulty),
    });
    expect(await node.result("eth_getUncleByBlockHashAndIndex", [toData(b2.hash()), "0x1"])).toBeNull();
  });
});

describe("eth_getUncleByBlockNumberAndIndex", () => {
  it("finds the uncle by the including block's number", async () => {
    expect((await node.result("eth_getUncleByBlockNumberAndIndex", ["latest", "0x0"])).hash).toBe(
      toData(sibling.hash()),
    );
  });

  it("adds the uncle's difficulty to cumulativeDifficulty", async () => {
    const block = await node.result("eth_getBlockByNumber", ["0x2", false]);
    expect(block.uncles).toEqual([toData(sibling.hash())]);
    expect(BigInt(block.cumulativeDifficulty)).toBe(b2.header.difficulty + sibling.header.difficulty);
  });
});
