import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, buildFixture, carol, dave, type Fixture} from "../../../support/fixture.ts";
import {TestNode} from "../../../support/node.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  node = await TestNode.start();
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

const COW_BALANCE = 10n ** 30n;

describe("eth_getBalance", () => {
  it("returns the balance at latest by default, and at a number, tag, hash or map", async () => {
    const dave0 = BigInt(await node.result("eth_getBalance", [toData(dave.address)]));
    expect(dave0).toBe(COW_BALANCE + 5n);
    const [b1, b2] = fixture.blocks;
    expect(await node.result("eth_getBalance", [toData(dave.address), "0x1"])).toBe(`0x${COW_BALANCE.toString(16)}`);
    expect(await node.result("eth_getBalance", [toData(dave.address), "earliest"])).toBe(
      `0x${COW_BALANCE.toString(16)}`,
    );
    expect(await node.result("eth_getBalance", [toData(dave.address), toData(b2.hash())])).toBe(
      `0x${(COW_BALANCE + 5n).toString(16)}`,
    );
    expect(await node.result("eth_getBalance", [toData(dave.address), {blockHash: toData(b1.hash())}])).toBe(
      `0x${COW_BALANCE.toString(16)}`,
    );
    expect(await node.result("eth_getBalance", [toData(dave.address), {blockNumber: "0x2"}])).toBe(
      `0x${(COW_BALANCE + 5n).toString(16)}`,
    );
    expect(await node.result("eth_getBalance", [toData(carol.address), "pending"])).toBe(
      `0x${(COW_BALANCE - 5n).toString(16)}`,
    );
  });

  it("is 0x0 for an unknown account", async () => {
    expect(await node.result("eth_getBalance", ["0x000000000000000000000000000000000000dead", "latest"])).toBe("0x0");
  });

  it("names the bad argument (-32602)", async () => {
    const short = await node.call("eth_getBalance", ["0x1234", "latest"]);
    expect(short.error).toEqual({
      code: -32602,
      message: "invalid argument 0 (address): hex string has length 4, want 40",
    });
    expect((await node.error("eth_getBalance", [toData(alice.address), "0x01"])).message).toBe(
      "invalid argument 1 (block): hex number with leading zero digits",
    );
    expect((await node.error("eth_getBalance", [toData(alice.address), "newest"])).message).toBe(
      'invalid argument 1 (block): invalid block identifier "newest"',
    );
    expect((await node.error("eth_getBalance", [])).message).toBe("missing value for required argument 0 (address)");
    expect((await node.error("eth_getBalance", [toData(alice.address), "latest", 1])).message).toBe(
      "too many arguments, want at most 2",
    );
    expect((await node.error("eth_getBalance", [toData(alice.address), {}])).message).toBe(
      "invalid argument 1 (block): expected exactly one of blockHash and blockNumber",
    );
  });

  it("answers -32600 for a block that does not exist (docs/protocol/errors.md)", async () => {
    expect(await node.error("eth_getBalance", [toData(alice.address), "0x64"])).toEqual({
      code: -32600,
      message: "Block 0x64 not found",
    });
    const unknown = `0x${"11".repeat(32)}`;
    expect((await node.error("eth_getBalance", [toData(alice.address), unknown])).message).toBe(
      `Block ${unknown} not found`,
    );
  });
});
