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
    // Under its 50M gas it would loop for seconds and answer the gas-out result: -32011 is the timeout's.
    const reply = await endless("eth_call");
    expect(reply.error?.code).toBe(-32011);
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
    let ended = false;
    const calls = Promise.all(Array.from({length: 8}, () => endless("eth_call"))).finally(() => {
      ended = true;
    });
    // Counted, not timed: the answers that came while the eight still ran. Before calls were
    // preempted, the first of these waited for all eight to run out of gas (none came meanwhile).
    let answeredMeanwhile = 0;
    while (!ended) {
      const reply: Reply = await node.call("eth_blockNumber");
      expect(reply.result).toBe("0x1");
      if (!ended) answeredMeanwhile++;
    }
    for (const reply of await calls) expect(reply.error?.code).toBe(-32011);
    expect(answeredMeanwhile).toBeGreaterThan(3);
  });

  it("a normal eth_call completes while another client's endless calls run", async () => {
    let ended = false;
    const calls = Promise.all(Array.from({length: 4}, () => endless("eth_call"))).finally(() => {
      ended = true;
    });
    const reply = await node.call("eth_call", [
      {from: toData(alice.address), to: toData(alice.address), data: "0x"},
      "latest",
    ]);
    expect(reply.result).toBe("0x");
    // Before the endless ones end at the timeout: an order of events, not a time.
    expect(ended).toBe(false);
    await calls;
  });
});
