/**
 * The callTracer's frames for reverts (docs/protocol/debug-traces.md §4.2): `revertReason` as geth's
 * abi.UnpackRevert gives it, on the root and on inner frames: an Error(string)'s message, a
 * Panic(uint256)'s meaning, none for a custom error, an empty or malformed payload.
 */
import type {FrameEnd, FrameStart, TracedTransaction, TransactionOutcome} from "@xchain/execution";
import {encodeErrorResult, parseAbi} from "viem";
import {describe, expect, it} from "vitest";
import {CallTreeTracer} from "../../src/trace/callTree.ts";
import {type CallTracerOptions, type GethCallFrame, gethCallFrame} from "../../src/trace/gethCallTracer.ts";

const ABI = parseAbi(["error Error(string)", "error Panic(uint256)", "error Insufficient(uint256 needed)"]);
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), "hex"));
const errorString = (message: string) => bytes(encodeErrorResult({abi: ABI, errorName: "Error", args: [message]}));
const panic = (code: bigint) => bytes(encodeErrorResult({abi: ABI, errorName: "Panic", args: [code]}));
const custom = bytes(encodeErrorResult({abi: ABI, errorName: "Insufficient", args: [5n]}));

const address = (byte: number) => new Uint8Array(20).fill(byte);
const start = (depth: number): FrameStart => ({
  kind: "call",
  depth,
  from: address(1),
  to: address(2 + depth),
  value: 0n,
  gas: 100_000n,
  input: new Uint8Array([1, 2, 3, 4]),
  precompile: false,
});
const reverted = (output: Uint8Array): FrameEnd => ({
  gasUsed: 50n,
  output,
  error: "revert",
  createdAddress: undefined,
  ranCode: true,
  logs: [],
});
const options: CallTracerOptions = {onlyTopCall: false, withLog: false};
const tx = {index: 0, gasLimit: 200_000n, intrinsicGas: 21_000n} as TracedTransaction;
const outcome = {status: false, gasUsed: 30_000n} as TransactionOutcome;

/** The root frame of one transaction whose root reverts with `root` after sub-calls reverting with `inner`. */
function traced(root: Uint8Array, ...inner: Uint8Array[]): GethCallFrame {
  const tree = new CallTreeTracer();
  tree.transactionStart();
  tree.frameStart(start(0));
  for (const output of inner) {
    tree.frameStart(start(1));
    tree.frameEnd(reverted(output));
  }
  tree.frameEnd(reverted(root));
  tree.transactionEnd(tx, outcome);
  return gethCallFrame(tree.transactions[0]!, options, new WeakMap());
}

describe("callTracer revertReason", () => {
  it("decodes Error(string) on the root frame and on inner frames", () => {
    const frame = traced(errorString("outer says no"), errorString("inner says no"));
    expect(frame).toMatchObject({error: "execution reverted", revertReason: "outer says no", gasUsed: "0x7530"});
    expect(frame.calls?.[0]).toMatchObject({error: "execution reverted", revertReason: "inner says no"});
  });

  it("gives a Panic(uint256) its meaning in geth's words, on the root and inner frames", () => {
    const frame = traced(panic(0x01n), panic(0x11n), panic(0x99n));
    expect(frame.revertReason).toBe("assert(false)");
    expect(frame.calls?.map((c) => c.revertReason)).toEqual([
      "arithmetic underflow or overflow",
      "unknown panic code: 0x99",
    ]);
  });

  it("leaves revertReason out for a custom error, an empty payload and a malformed Error(string)", () => {
    const truncated = errorString("cut short").subarray(0, 40);
    const frame = traced(custom, new Uint8Array(), truncated);
    expect(frame).toMatchObject({error: "execution reverted", output: `0x${Buffer.from(custom).toString("hex")}`});
    expect(frame.revertReason).toBeUndefined();
    const [empty, malformed] = frame.calls ?? [];
    expect(empty).not.toHaveProperty("output");
    expect(empty).not.toHaveProperty("revertReason");
    expect(malformed).not.toHaveProperty("revertReason");
  });
});
