import {toData, toQuantity} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {bob, buildFixture, carol, dave, type Fixture} from "../../../support/fixture.ts";
import {signTx, TestNode} from "../../../support/node.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  node = await TestNode.start();
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

describe("eth_getTransactionByHash", () => {
  it("returns the transaction object of docs/rpc.md §2.4", async () => {
    const tx = fixture.transfer;
    expect(await node.result("eth_getTransactionByHash", [toData(tx.hash())])).toEqual({
      hash: toData(tx.hash()),
      nonce: "0x0",
      blockHash: toData(fixture.blocks[1].hash()),
      blockNumber: "0x2",
      transactionIndex: "0x2",
      from: toData(carol.address),
      to: toData(dave.address),
      gas: "0x5208",
      gasPrice: "0x0",
      value: "0x5",
      input: "0x",
      v: toQuantity(tx.v!),
      r: toQuantity(tx.r),
      s: toQuantity(tx.s),
      type: "0x0",
    });
    expect([101, 102]).toContain(tx.v);
  });

  it("shows a contract creation with to null", async () => {
    expect((await node.result("eth_getTransactionByHash", [toData(fixture.deploy.hash())])).to).toBeNull();
  });

  it("shows a pending transaction with null block fields (docs/rpc.md §3.3)", async () => {
    const pending = signTx(bob, {nonce: 2n, to: dave.address, value: 1n});
    await node.result("eth_sendRawTransaction", [toData(pending.encode())]);
    expect(await node.result("eth_getTransactionByHash", [toData(pending.hash())])).toMatchObject({
      hash: toData(pending.hash()),
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
    });
  });

  it("is null for an unknown hash", async () => {
    expect(await node.result("eth_getTransactionByHash", [`0x${"55".repeat(32)}`])).toBeNull();
  });
});
