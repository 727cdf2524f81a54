import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, buildFixture, type Fixture} from "../../../support/fixture.ts";
import {TestNode} from "../../../support/node.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  node = await TestNode.start();
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

describe("eth_getCode", () => {
  it("returns the deployed code after its creation and 0x before", async () => {
    const code = await node.result("eth_getCode", [toData(fixture.contract), "latest"]);
    expect(code).toMatch(/^0x6080/);
    expect(code.length).toBeGreaterThan(100);
    expect(await node.result("eth_getCode", [toData(fixture.contract), "earliest"])).toBe("0x");
    expect(await node.result("eth_getCode", [toData(alice.address), "latest"])).toBe("0x");
  });

  it("requires the block (docs/rpc.md §4.3)", async () => {
    expect((await node.error("eth_getCode", [toData(fixture.contract)])).code).toBe(-32602);
  });
});
