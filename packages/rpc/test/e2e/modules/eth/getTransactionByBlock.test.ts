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

describe("eth_getTransactionByBlockHashAndIndex", () => {
  it("returns the transaction at the index, null past the end", async () => {
    const hash = toData(fixture.blocks[1].hash());
    const json = await node.result("eth_getTransactionByBlockHashAndIndex", [hash, "0x1"]);
    expect(json).toEqual(await node.result("eth_getTransactionByHash", [toData(fixture.ping.hash())]));
    expect(await node.result("eth_getTransactionByBlockHashAndIndex", [hash, "0x9"])).toBeNull();
    expect(await node.result("eth_getTransactionByBlockHashAndIndex", [`0x${"66".repeat(32)}`, "0x0"])).toBeNull();
  });

  it("requires both arguments", async () => {
    expect(
      (await node.error("eth_getTransactionByBlockHashAndIndex", [toData(fixture.blocks[1].hash())])).message,
    ).toBe("missing value for required argument 1 (index)");
  });
});

describe("eth_getTransactionByBlockNumberAndIndex", () => {
  it("returns the transaction at a number or tag", async () => {
    expect((await node.result("eth_getTransactionByBlockNumberAndIndex", ["0x2", "0x0"])).hash).toBe(
      toData(fixture.store.hash()),
    );
    expect((await node.result("eth_getTransactionByBlockNumberAndIndex", ["latest", "0x0"])).hash).toBe(
      toData(fixture.ping8.hash()),
    );
    expect(await node.result("eth_getTransactionByBlockNumberAndIndex", ["0x20", "0x0"])).toBeNull();
  });
});
