/** The call tree a traced re-execution builds: nesting, self-destructs in order, REMASC. */
import type {FrameEnd, FrameStart, TracedTransaction, TransactionOutcome} from "@xchain/execution";
import {describe, expect, it} from "vitest";
import {type CallFrame, CallTreeTracer} from "../../src/trace/callTree.ts";

const address = (byte: number) => new Uint8Array(20).fill(byte);
const start = (depth: number, to: number): FrameStart => ({
  kind: "call",
  depth,
  from: address(1),
  to: address(to),
  value: 0n,
  gas: 100n,
  input: new Uint8Array(),
  precompile: false,
});
const end = (gasUsed: bigint): FrameEnd => ({
  gasUsed,
  output: new Uint8Array(),
  error: undefined,
  createdAddress: undefined,
  ranCode: true,
  logs: [],
});
const tx = (index: number) => ({index}) as TracedTransaction;
const outcome = {status: true} as TransactionOutcome;

describe("CallTreeTracer", () => {
  it("nests frames and keeps self-destructs in execution order, one tree per transaction", () => {
    const tracer = new CallTreeTracer();
    tracer.transactionStart();
    tracer.frameStart(start(0, 2));
    tracer.frameStart(start(1, 3));
    tracer.frameEnd(end(5n));
    tracer.selfDestruct({address: address(2), beneficiary: address(1), balance: 7n});
    tracer.frameStart(start(1, 4));
    tracer.frameEnd(end(6n));
    tracer.frameEnd(end(50n));
    tracer.transactionEnd(tx(0), outcome);
    tracer.transactionStart();
    tracer.remasc(tx(1), [
      {from: address(8), to: address(9), value: 3n},
      {from: address(8), to: address(10), value: 0n},
    ]);
    tracer.transactionEnd(tx(1), outcome);

    const [first, remasc] = tracer.transactions;
    const root = first?.root as CallFrame;
    expect(root.end.gasUsed).toBe(50n);
    expect(root.children.map((c) => (c.type === "frame" ? c.end.gasUsed : "selfdestruct"))).toEqual([
      5n,
      "selfdestruct",
      6n,
    ]);
    expect(remasc?.root).toBeUndefined();
    expect(remasc?.remasc.map((p) => p.value)).toEqual([3n, 0n]);
    expect(first?.remasc).toEqual([]);
  });
});
