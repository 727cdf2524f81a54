import {toData, toQuantity} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {createdContractAddress} from "../../../../src/format/receipt.ts";
import {alice, buildFixture, type Fixture} from "../../../support/fixture.ts";
import {TestNode} from "../../../support/node.ts";
import {STORED_TOPIC, topic} from "../../../support/probe.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  node = await TestNode.start();
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

describe("eth_getTransactionReceipt", () => {
  it("returns the receipt object of docs/rpc.md §2.5 with its logs", async () => {
    const block = fixture.blocks[1];
    const receipts = (await node.chain.getReceipts(block.hash()))!;
    const receipt = await node.result("eth_getTransactionReceipt", [toData(fixture.store.hash())]);
    expect(Object.keys(receipt)).toEqual([
      "transactionHash",
      "transactionIndex",
      "blockHash",
      "blockNumber",
      "from",
      "to",
      "cumulativeGasUsed",
      "gasUsed",
      "effectiveGasPrice",
      "contractAddress",
      "logs",
      "logsBloom",
      "status",
      "type",
    ]);
    expect(receipt).toMatchObject({
      transactionHash: toData(fixture.store.hash()),
      transactionIndex: "0x0",
      blockHash: toData(block.hash()),
      blockNumber: "0x2",
      from: toData(alice.address),
      to: toData(fixture.contract),
      cumulativeGasUsed: toQuantity(receipts[0]!.cumulativeGas),
      gasUsed: toQuantity(receipts[0]!.gasUsed),
      effectiveGasPrice: "0x1",
      contractAddress: null,
      logsBloom: toData(receipts[0]!.logsBloom),
      status: "0x1",
      type: "0x0",
    });
    expect(receipt.logs).toEqual([
      {
        removed: false,
        logIndex: "0x0",
        transactionIndex: "0x0",
        transactionHash: toData(fixture.store.hash()),
        blockHash: toData(block.hash()),
        blockNumber: "0x2",
        address: toData(fixture.contract),
        data: toData(topic(0xabn)),
        topics: [toData(STORED_TOPIC), toData(topic(alice.address)), toData(topic(42n))],
      },
    ]);
  });

  it("numbers logs from the start of the block", async () => {
    const ping = await node.result("eth_getTransactionReceipt", [toData(fixture.ping.hash())]);
    expect(ping.logs.map((l: {logIndex: string}) => l.logIndex)).toEqual(["0x1"]);
    expect(ping.cumulativeGasUsed).not.toBe(ping.gasUsed);
  });

  it("sets contractAddress for a creation", async () => {
    const deploy = await node.result("eth_getTransactionReceipt", [toData(fixture.deploy.hash())]);
    expect(deploy.contractAddress).toBe(toData(createdContractAddress(alice.address, 0n)));
    expect(deploy.contractAddress).toBe(toData(fixture.contract));
    expect(deploy.to).toBeNull();
  });

  it("is null for a pending or unknown transaction", async () => {
    expect(await node.result("eth_getTransactionReceipt", [`0x${"77".repeat(32)}`])).toBeNull();
  });
});
