/**
 * debug_traceCall's options (docs/protocol/debug-traces.md §2, §6): the trace options with geth's
 * `enableMemory`, `stateOverrides` as eth_call's state override, and `blockOverrides` read into the
 * block context by geth's names and their older spellings; what this chain has no use for is refused.
 */
import {describe, expect, it} from "vitest";
import {ParamError} from "../../src/params/codec.ts";
import {DEFAULT_TRACE_CALL_OPTIONS, traceCallOptions} from "../../src/params/traceCallOptions.ts";
import {traceOptions} from "../../src/params/traceOptions.ts";

const decode = traceCallOptions(2);
const coinbase = `0x${"ab".repeat(20)}`;

describe("trace options: enableMemory", () => {
  it("is the inverse of disableMemory, which wins when both are given", () => {
    expect(traceOptions({enableMemory: false}, "options").disableMemory).toBe(true);
    expect(traceOptions({tracerConfig: {enableMemory: "true"}}, "options").disableMemory).toBe(false);
    expect(traceOptions({enableMemory: false, disableMemory: false}, "options").disableMemory).toBe(false);
    expect(traceOptions({}, "options").disableMemory).toBe(false);
  });
});

describe("debug_traceCall options", () => {
  it("reads the tracer, its switches and both overrides", () => {
    const options = decode(
      {
        tracer: "callTracer",
        tracerConfig: {onlyTopCall: true},
        stateOverrides: {[coinbase]: {balance: "0x10"}},
        blockOverrides: {number: "0x64", time: "0x10", gasLimit: "0x1000", feeRecipient: coinbase, baseFee: "0x3"},
      },
      "options",
    );
    expect(options).toMatchObject({tracer: "callTracer", onlyTopCall: true});
    expect(options.stateOverrides).toEqual([expect.objectContaining({balance: 16n})]);
    expect(options.blockOverrides).toEqual({
      number: 100,
      timestamp: 16,
      gasLimit: 0x1000n,
      coinbase: Uint8Array.from(Buffer.from("ab".repeat(20), "hex")),
      minimumGasPrice: 3n,
    });
    expect(decode({}, "options")).toEqual(DEFAULT_TRACE_CALL_OPTIONS);
  });

  it("refuses block overrides this chain has no use for, unknown ones and bad state overrides, naming the path", () => {
    const refusal = (value: unknown) => {
      try {
        decode(value, "options");
      } catch (e) {
        return e instanceof ParamError ? e.message : String(e);
      }
      return "accepted";
    };
    expect(refusal({blockOverrides: {prevRandao: "0x1"}})).toBe(
      "options.blockOverrides.prevRandao: not supported on this chain",
    );
    expect(refusal({blockOverrides: {blockNumber: "0x1"}})).toBe(
      "options.blockOverrides.blockNumber: unknown block override field",
    );
    const three = Object.fromEntries([1, 2, 3].map((n) => [`0x${String(n).repeat(40)}`, {nonce: "0x1"}]));
    expect(refusal({stateOverrides: three})).toBe("options.stateOverrides: 3 accounts overridden, at most 2 allowed");
  });
});
