import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, dave} from "../../../support/fixture.ts";
import {signTx, TestNode} from "../../../support/node.ts";

let node: TestNode;
beforeAll(async () => {
  node = await TestNode.start();
});
afterAll(() => node.close());

describe("eth_pendingTransactions", () => {
  it("lists the txpool's pending transactions with the zero block hash (docs/rpc.md §2.4)", async () => {
    expect(await node.result("eth_pendingTransactions")).toEqual([]);
    const tx = signTx(alice, {nonce: 0n, to: dave.address, value: 3n});
    await node.result("eth_sendRawTransaction", [toData(tx.encode())]);
    expect(await node.result("eth_pendingTransactions")).toEqual([
      expect.objectContaining({
        hash: toData(tx.hash()),
        blockHash: toData(new Uint8Array(32)),
        blockNumber: null,
        transactionIndex: null,
        value: "0x3",
      }),
    ]);
  });
});
