/** The LRU of block traces, and the trace error strings (docs/protocol/traces.md §5, §7). */
import {describe, expect, it} from "vitest";
import type {TransactionTraces} from "../../src/trace/blockTraces.ts";
import {traceError} from "../../src/trace/parityTrace.ts";
import {TraceCache} from "../../src/trace/traceCache.ts";

const hash = (byte: number) => new Uint8Array(32).fill(byte);
const traces = (byte: number): TransactionTraces[] => [{from: hash(byte).slice(12), to: undefined, traces: []}];

describe("TraceCache", () => {
  it("drops the least recently used block beyond its capacity", () => {
    const cache = new TraceCache(2);
    const [one, two, three] = [traces(1), traces(2), traces(3)];
    cache.set(hash(1), one);
    cache.set(hash(2), two);
    expect(cache.get(hash(1))).toBe(one);
    cache.set(hash(3), three);
    expect(cache.get(hash(2))).toBeUndefined();
    expect(cache.get(hash(1))).toBe(one);
    expect(cache.get(hash(3))).toBe(three);
  });
});

describe("traceError", () => {
  it("maps the EVM's halts to Reverted and Parity's strings, anything else to Internal error", () => {
    expect(
      ["revert", "out of gas", "invalid opcode", "invalid JUMP", "stack underflow", "whatever"].map(traceError),
    ).toEqual([
      "Reverted",
      "Out of gas",
      "Bad instruction",
      "Bad jump destination",
      "Stack underflow",
      "Internal error",
    ]);
  });
});
