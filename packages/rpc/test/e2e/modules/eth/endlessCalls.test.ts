/**
 * Endless calls cannot freeze the server: eth_call and eth_estimateGas of a loop under the gas cap
 * stop at the request timeout with -32011, other requests are answered while they run, and one
 * client's calls beyond its cap wait without holding back another client's (docs/rpc.md §8).
 */
import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice} from "../../../support/fixture.ts";
import {type Reply, TestNode} from "../../../support/node.ts";

/** JUMPDEST PUSH1 0 JUMP as creation code: eth_call without `to` runs it until the gas runs out. */
const ENDLESS = "0x5b600056";
const TIMEOUT_MS = 600;

let node: TestNode;

beforeAll(async () => {
  node = await TestNode.start({
    rpc: {requestTimeoutMs: TIMEOUT_MS, maxCallsPerClient: 1, callGasCap: 50_000_000},
  });
  await node.mine();
});
afterAll(() => node.close());

const endless = (method: "eth_call" | "eth_estimateGas") =>
  node.call(method, [{from: toData(alice.address), data: ENDLESS, gas: "0x2faf080"}, "latest"]);

describe("endless calls", () => {
  it("eth_call stops at the timeout with -32011", async () => {
    const started = performance.now();
    const reply = await endless("eth_call");
    expect(reply.error?.code).toBe(-32011);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 1_000);
  });

  it("eth_estimateGas stops at the timeout with -32011", async () => {
    // The estimate's first run is bounded by the block gas limit (6.8M gas, a few hundred ms of
    // looping): a 50 ms timeout stops it on any machine.
    const quick = await TestNode.start({rpc: {requestTimeoutMs: 50}});
    try {
      await quick.mine();
      const reply = await quick.call("eth_estimateGas", [{from: toData(alice.address), data: ENDLESS}, "latest"]);
      expect(reply.error?.code).toBe(-32011);
    } finally {
      await quick.close();
    }
  });

  it("eight running leave other requests answered quickly", async () => {
    const calls = Array.from({length: 8}, () => endless("eth_call"));
    const latencies: number[] = [];
    const deadline = performance.now() + TIMEOUT_MS - 50;
    while (performance.now() < deadline) {
      const started = performance.now();
      const reply: Reply = await node.call("eth_blockNumber");
      latencies.push(performance.now() - started);
      expect(reply.result).toBe("0x1");
    }
    const replies = await Promise.all(calls);
    for (const reply of replies) expect(reply.error?.code).toBe(-32011);
    // Before calls were preempted, the first of these waited for all eight calls to run out of gas (seconds).
    latencies.sort((a, b) => a - b);
    expect(latencies.length).toBeGreaterThan(3);
    expect(latencies[latencies.length >> 1]).toBeLessThan(100);
  });

  it("a normal eth_call completes while another client's endless calls run", async () => {
    const calls = Array.from({length: 4}, () => endless("eth_call"));
    const started = performance.now();
    const reply = await node.call("eth_call", [
      {from: toData(alice.address), to: toData(alice.address), data: "0x"},
      "latest",
    ]);
    expect(reply.result).toBe("0x");
    // Well before the endless ones end at the timeout.
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS / 2);
    await Promise.all(calls);
  });
});
