/**
 * The struct logger's top-level keys (docs/protocol/debug-traces.md §3.1): rskj's keys, then geth's
 * `gas` (the receipt's gas used, a JSON number), `failed` (the root frame failed, a revert included)
 * and `returnValue` (the root output as hex without 0x, its revert data on a revert, empty after any
 * other failure), as geth's logger.go GetResult writes them.
 */
import type {FrameEnd, TracedTransaction, TransactionOutcome} from "@xchain/execution";
import {Transaction} from "@xchain/primitives";
import {describe, expect, it} from "vitest";
import {StructLogTracer} from "../../src/trace/structLogger.ts";

const to = new Uint8Array(20).fill(9);
const transaction = Transaction.impersonate(
  {nonce: 0n, gasPrice: 0n, gasLimit: 100_000n, to, value: 0n, data: new Uint8Array()},
  new Uint8Array(20).fill(1),
);
const tx: TracedTransaction = {index: 0, transaction, gasLimit: 100_000n, intrinsicGas: 21_000n};
const outcome = (gasUsed: bigint) => ({transaction, status: true, gasUsed, logs: []}) as unknown as TransactionOutcome;
const end = (error: string | undefined, output: number[]): FrameEnd => ({
  gasUsed: 1_000n,
  output: Uint8Array.from(output),
  error,
  createdAddress: undefined,
  ranCode: true,
  logs: [],
});
const start = {
  kind: "call",
  depth: 0,
  from: transaction.sender(),
  to,
  value: 0n,
  gas: 79_000n,
  input: new Uint8Array(),
  precompile: false,
} as const;

/** The logger's object for one transaction whose root frame ends with `root` (none: no code ran). */
function traced(root: FrameEnd | undefined, gasUsed: bigint): Record<string, unknown> {
  const logger = new StructLogTracer(
    {disableStack: false, disableMemory: false, disableStorage: false},
    () => {},
    () => {},
  );
  logger.transactionStart();
  if (root) {
    logger.frameStart(start);
    logger.frameEnd(root);
  }
  logger.transactionEnd(tx, outcome(gasUsed));
  return JSON.parse(logger.results[0]!.json);
}

describe("struct logger: geth's gas, failed and returnValue", () => {
  it("follow rskj's keys, which keep their place", () => {
    const result = traced(end(undefined, [0xab, 0x01]), 21_500n);
    expect(Object.keys(result).slice(-4)).toEqual(["currentStorage", "gas", "failed", "returnValue"]);
    expect(result).toMatchObject({result: "ab01", gas: 21_500, failed: false, returnValue: "ab01"});
  });

  it("a revert: failed, and the revert data as returnValue", () => {
    expect(traced(end("revert", [0x08, 0xc3, 0x79, 0xa0]), 30_000n)).toMatchObject({
      reverted: true,
      error: "",
      gas: 30_000,
      failed: true,
      returnValue: "08c379a0",
    });
  });

  it("another failure: failed, with an empty returnValue", () => {
    expect(traced(end("out of gas", [0x01]), 100_000n)).toMatchObject({
      error: "out of gas",
      gas: 100_000,
      failed: true,
      returnValue: "",
    });
  });

  it("no code ran (a transfer): not failed, nothing returned", () => {
    expect(traced(undefined, 21_000n)).toMatchObject({gas: 21_000, failed: false, returnValue: "", structLogs: []});
  });
});
