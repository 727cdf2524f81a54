/**
 * eth_getBlockReceipts (docs/rpc.md §4.3): the block's receipts in order, each what
 * eth_getTransactionReceipt answers; `[]` for genesis (no transactions); null for an unknown block;
 * under `maxResponseBytes` like any answer.
 */
import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {buildFixture, type Fixture, useFixtureNode} from "../../../support/fixture.ts";
import {TestNode} from "../../../support/node.ts";

const shared = useFixtureNode();

/** What eth_getTransactionReceipt answers for each transaction of `block`, in order. */
const receiptsOneByOne = (block: Fixture["blocks"][number]) =>
  Promise.all(block.transactions.map((tx) => shared.node.result("eth_getTransactionReceipt", [toData(tx.hash())])));

describe("eth_getBlockReceipts", () => {
  it("answers every receipt of the block in order, as eth_getTransactionReceipt gives each", async () => {
    const block = shared.fixture.blocks[1];
    const receipts = await shared.node.result("eth_getBlockReceipts", [toData(block.hash())]);
    // The store, the ping, the transfer, then the REMASC transaction.
    expect(block.transactions).toHaveLength(4);
    expect(receipts).toEqual(await receiptsOneByOne(block));
    expect(receipts.map((r: {transactionHash: string}) => r.transactionHash)).toEqual([
      toData(shared.fixture.store.hash()),
      toData(shared.fixture.ping.hash()),
      toData(shared.fixture.transfer.hash()),
      toData(block.transactions[3]!.hash()),
    ]);
    // Log indexes count from the start of the block, across receipts.
    const logIndexes = receipts.flatMap((r: {logs: {logIndex: string}[]}) => r.logs.map((l) => l.logIndex));
    expect(logIndexes).toEqual(logIndexes.map((_: string, i: number) => `0x${i.toString(16)}`));
    expect(logIndexes.length).toBeGreaterThan(1);
  });

  it("names the block by number, tag, hash or EIP-1898 map", async () => {
    const [b1, , b3] = shared.fixture.blocks;
    const byHash = await shared.node.result("eth_getBlockReceipts", [toData(b1.hash())]);
    expect(byHash).toEqual(await receiptsOneByOne(b1));
    expect(await shared.node.result("eth_getBlockReceipts", ["0x1"])).toEqual(byHash);
    expect(await shared.node.result("eth_getBlockReceipts", [{blockHash: toData(b1.hash())}])).toEqual(byHash);
    expect(await shared.node.result("eth_getBlockReceipts", [{blockNumber: "0x1"}])).toEqual(byHash);
    const latest = await receiptsOneByOne(b3);
    for (const tag of ["latest", "pending"])
      expect(await shared.node.result("eth_getBlockReceipts", [tag])).toEqual(latest);
    expect(await shared.node.result("eth_getBlockReceipts", ["earliest"])).toEqual([]);
  });

  it("answers [] for a block without transactions and null for an unknown block", async () => {
    expect(await shared.node.result("eth_getBlockReceipts", ["0x0"])).toEqual([]);
    expect(await shared.node.call("eth_getBlockReceipts", ["0x64"])).toMatchObject({result: null});
    expect(await shared.node.call("eth_getBlockReceipts", [`0x${"ab".repeat(32)}`])).toMatchObject({result: null});
  });

  it("answers -32602 for a missing or malformed block", async () => {
    expect((await shared.node.error("eth_getBlockReceipts", [])).code).toBe(-32602);
    expect(await shared.node.error("eth_getBlockReceipts", ["newest"])).toEqual({
      code: -32602,
      message: 'invalid argument 0 (block): invalid block identifier "newest"',
    });
  });
});

describe("eth_getBlockReceipts under maxResponseBytes", () => {
  let small: TestNode;
  let smallFixture: Fixture;
  beforeAll(async () => {
    small = await TestNode.start({rpc: {maxResponseBytes: 3_000}});
    smallFixture = await buildFixture(small);
  });
  afterAll(() => small?.close());

  it("answers -32011 with the request's id when the receipts pass the cap", async () => {
    const reply = await small.call("eth_getBlockReceipts", [toData(smallFixture.blocks[1].hash())]);
    expect(reply.error).toEqual({code: -32011, message: "Response too large: more than 3000 bytes"});
    // A block whose receipts fit is answered.
    expect(await small.result("eth_getBlockReceipts", ["0x0"])).toEqual([]);
  });
});
