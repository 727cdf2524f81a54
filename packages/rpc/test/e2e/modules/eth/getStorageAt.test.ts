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

const word = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

describe("eth_getStorageAt", () => {
  it("returns the 32-byte value of a slot at a block", async () => {
    const contract = toData(fixture.contract);
    expect(await node.result("eth_getStorageAt", [contract, "0x0", "latest"])).toBe(word(42));
    expect(await node.result("eth_getStorageAt", [contract, "0x0", "0x1"])).toBe(word(0));
    // Zero-padded slots, as tools send them.
    expect(await node.result("eth_getStorageAt", [contract, word(0), {blockNumber: "0x2"}])).toBe(word(42));
  });

  it("is 32 zero bytes for a missing slot or account", async () => {
    expect(await node.result("eth_getStorageAt", [toData(alice.address), "0x5", "latest"])).toBe(word(0));
  });

  it("requires the block (docs/rpc.md §4.3) and a valid slot", async () => {
    expect((await node.error("eth_getStorageAt", [toData(fixture.contract), "0x0"])).message).toBe(
      "missing value for required argument 2 (block)",
    );
    expect((await node.error("eth_getStorageAt", [toData(fixture.contract), "0xzz", "latest"])).message).toBe(
      "invalid argument 1 (position): expected 0x and 1 to 64 hex digits",
    );
  });
});
