import type {Transaction} from "@xchain/primitives";
import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, buildFixture} from "../../../support/fixture.ts";
import {signTx, TestNode} from "../../../support/node.ts";

let node: TestNode;
beforeAll(async () => {
  node = await TestNode.start();
  await buildFixture(node);
});
afterAll(() => node.close());

describe("eth_getTransactionCount", () => {
  it("counts the transactions sent, at a block", async () => {
    expect(await node.result("eth_getTransactionCount", [toData(alice.address)])).toBe("0x2");
    expect(await node.result("eth_getTransactionCount", [toData(alice.address), "0x1"])).toBe("0x1");
    expect(await node.result("eth_getTransactionCount", [toData(alice.address), "earliest"])).toBe("0x0");
  });

  it("counts the txpool's pending transactions at `pending`", async () => {
    const tx: Transaction = signTx(alice, {nonce: 2n, to: alice.address});
    await node.result("eth_sendRawTransaction", [toData(tx.encode())]);
    expect(await node.result("eth_getTransactionCount", [toData(alice.address), "pending"])).toBe("0x3");
    expect(await node.result("eth_getTransactionCount", [toData(alice.address), "latest"])).toBe("0x2");
  });
});
