import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, buildFixture, dave, type Fixture} from "../../../support/fixture.ts";
import {TestNode} from "../../../support/node.ts";
import {probe, probeCall} from "../../../support/probe.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  node = await TestNode.start();
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

/** Whether the call succeeds with exactly `gas`. */
async function succeedsWith(call: Record<string, string>, gas: bigint): Promise<boolean> {
  const reply = await node.call("eth_call", [{...call, gas: `0x${gas.toString(16)}`}, "latest"]);
  return reply.error === undefined;
}

describe("eth_estimateGas", () => {
  it("is 21,000 for a plain transfer", async () => {
    expect(
      await node.result("eth_estimateGas", [{from: toData(alice.address), to: toData(dave.address), value: "0x1"}]),
    ).toBe("0x5208");
  });

  it("finds the lowest gas limit that succeeds", async () => {
    for (const data of [probeCall.store(7n, 1n), probeCall.burn(40n), probeCall.ping(3n)]) {
      const call = {from: toData(alice.address), to: toData(fixture.contract), data: toData(data)};
      const estimate = BigInt(await node.result("eth_estimateGas", [call]));
      expect(await succeedsWith(call, estimate)).toBe(true);
      expect(await succeedsWith(call, estimate - 1n)).toBe(false);
    }
  });

  it("estimates a contract creation", async () => {
    const deploy = {from: toData(alice.address), data: toData(probe().bytecode)};
    const estimate = BigInt(await node.result("eth_estimateGas", [deploy, "latest"]));
    expect(estimate).toBeGreaterThan(53_000n);
    expect(estimate).toBeLessThan(1_000_000n);
  });

  it("answers a revert with the reason and payload in rpc.revertErrors' form (docs/rpc.md §7)", async () => {
    const revert = {to: toData(fixture.contract), data: toData(probeCall.fail())};
    const error = await node.error("eth_estimateGas", [revert]);
    expect(error.code).toBe(3);
    expect(error.message).toBe("execution reverted: nope");
    expect(error.data).toMatch(/^0x08c379a0/);
    const rskj = await TestNode.start({rpc: {revertErrors: "rskj"}});
    try {
      const rskjError = await rskj.error("eth_estimateGas", [
        {...revert, to: toData((await buildFixture(rskj)).contract)},
      ]);
      expect(rskjError.code).toBe(-32015);
      expect(rskjError.message).toBe("VM Exception while processing transaction: revert nope");
      expect(rskjError.data).toMatch(/^0x08c379a0/);
    } finally {
      await rskj.close();
    }
  });

  it("answers -32000 `insufficient funds for transfer` when value exceeds the balance (docs/rpc.md §7)", async () => {
    const poor = {from: `0x${"98".repeat(20)}`, to: toData(dave.address), value: "0x1"};
    expect(await node.error("eth_estimateGas", [poor])).toEqual({
      code: -32000,
      message: "insufficient funds for transfer",
    });
  });

  it("stays within the caller's gas", async () => {
    const call = {to: toData(fixture.contract), data: toData(probeCall.burn(40n)), gas: "0x7530"};
    expect(await node.error("eth_estimateGas", [call])).toEqual({
      code: -32000,
      message: "gas required exceeds allowance (30000)",
    });
  });

  it("stays within gasEstimationCap", async () => {
    const capped = await TestNode.start({rpc: {gasEstimationCap: 25_000}});
    try {
      await buildFixture(capped);
      const call = {to: toData(fixture.contract), data: toData(probeCall.burn(40n))};
      expect((await capped.error("eth_estimateGas", [call])).message).toBe("gas required exceeds allowance (25000)");
    } finally {
      await capped.close();
    }
  });
});
