// What eth_call and eth_estimateGas give the executor besides the message: the parentHash a call
// worker reads BLOCKHASH from (without it the node's call service runs the call on the main thread),
// and the intrinsic gas, computed once per request and carried by every run of an estimate.
import {type CallInput, intrinsicGas} from "@xchain/execution";
import {toData, toQuantity} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, buildFixture, type Fixture} from "../../../support/fixture.ts";
import {TestNode} from "../../../support/node.ts";
import {probeCall} from "../../../support/probe.ts";

let node: TestNode;
let fixture: Fixture;
const seen: CallInput[] = [];
beforeAll(async () => {
  node = await TestNode.start({
    rpc: {callCacheBytes: 0},
    wrapExecutor: (executor) => ({
      call: (input) => {
        seen.push(input);
        return executor.call(input);
      },
      trace: (...args) => executor.trace(...args),
      traceCall: (...args) => executor.traceCall(...args),
    }),
  });
  fixture = await buildFixture(node);
  await node.mine();
});
afterAll(() => node.close());

describe("a call's input", () => {
  it("carries the parentHash of the block it runs in, at the head and below it", async () => {
    const data = probeCall.ping(3n);
    const call = {from: toData(alice.address), to: toData(fixture.contract), data: toData(data)};
    const head = node.chain.head().header;
    for (const [tag, header] of [
      ["latest", head],
      [toQuantity(BigInt(head.number - 1)), await node.chain.getHeaderByNumber(head.number - 1)],
    ] as const) {
      seen.length = 0;
      await node.result("eth_call", [call, tag]);
      expect(seen).toHaveLength(1);
      expect(seen[0]?.parentHash).toEqual(header?.parentHash);
      expect(seen[0]?.intrinsicGas).toBe(intrinsicGas({to: fixture.contract, data}));
    }
  });

  it("carries the intrinsic gas computed once into every run of an estimate", async () => {
    const data = probeCall.burn(40n);
    seen.length = 0;
    await node.result("eth_estimateGas", [
      {from: toData(alice.address), to: toData(fixture.contract), data: toData(data)},
    ]);
    expect(seen.length).toBeGreaterThan(1);
    const intrinsic = intrinsicGas({to: fixture.contract, data});
    for (const input of seen) {
      expect(input.intrinsicGas).toBe(intrinsic);
      expect(input.parentHash).toEqual(node.chain.head().header.parentHash);
    }
  });
});
