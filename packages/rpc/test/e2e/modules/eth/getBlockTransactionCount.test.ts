import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {buildFixture, type Fixture} from "../../../support/fixture.ts";
import {TestNode} from "../../../support/node.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  node = await TestNode.start();
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

describe("eth_getBlockTransactionCountByHash", () => {
  it("counts the block's transactions, REMASC included; null for an unknown block", async () => {
    expect(await node.result("eth_getBlockTransactionCountByHash", [toData(fixture.blocks[1].hash())])).toBe("0x4");
    expect(await node.result("eth_getBlockTransactionCountByHash", [`0x${"33".repeat(32)}`])).toBeNull();
  });
});

describe("eth_getBlockTransactionCountByNumber", () => {
  it("counts the transactions of a number or tag", async () => {
    expect(await node.result("eth_getBlockTransactionCountByNumber", ["0x2"])).toBe("0x4");
    expect(await node.result("eth_getBlockTransactionCountByNumber", ["latest"])).toBe("0x2");
    expect(await node.result("eth_getBlockTransactionCountByNumber", ["earliest"])).toBe("0x0");
    expect(await node.result("eth_getBlockTransactionCountByNumber", ["0x99"])).toBeNull();
  });
});
