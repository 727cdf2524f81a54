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

describe("eth_getBlockByHash", () => {
  it("returns the same object as eth_getBlockByNumber", async () => {
    const hash = toData(fixture.blocks[2].hash());
    const byHash = await node.result("eth_getBlockByHash", [hash, true]);
    expect(byHash).toEqual(await node.result("eth_getBlockByNumber", ["0x3", true]));
    expect(await node.result("eth_getBlockByHash", [hash])).toEqual(await node.result("eth_getBlockByNumber", ["0x3"]));
  });

  it("is null for an unknown hash (docs/rpc.md §7 rule 2)", async () => {
    expect(await node.result("eth_getBlockByHash", [`0x${"22".repeat(32)}`, false])).toBeNull();
  });

  it("wants a 32-byte hash", async () => {
    expect((await node.error("eth_getBlockByHash", ["0x1234", false])).message).toBe(
      "invalid argument 0 (blockHash): hex string has length 4, want 64",
    );
  });
});
