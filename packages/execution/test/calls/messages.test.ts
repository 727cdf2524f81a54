import {NO_CHAIN_HEADERS} from "@xchain/test-utils";
import {hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  fromPortableInput,
  fromPortableResult,
  fromWire,
  toPortableInput,
  toPortableResult,
  toWire,
} from "../../src/calls/messages.ts";
import type {CallInput, CallResult, ExecutionChainView} from "../../src/types.ts";

const NO_VIEW: ExecutionChainView = {blockHash: async () => undefined, remasc: undefined, headers: NO_CHAIN_HEADERS};
const bytes = (length: number, seed: number) => Uint8Array.from({length}, (_, i) => (i * 31 + seed) & 0xff);

/** What a worker is handed, crossed through the structured clone as `postMessage` does it. */
const crossed = <T>(value: T): T => structuredClone(value);

/** Whether `value` holds a typed array anywhere (each costs an ArrayBuffer per side of the clone). */
function holdsTypedArray(value: unknown): boolean {
  if (ArrayBuffer.isView(value)) return true;
  if (Array.isArray(value)) return value.some(holdsTypedArray);
  return false;
}

describe("call messages", () => {
  it("carries every byte value, at every length, in a one-byte string", () => {
    const all = Uint8Array.from({length: 256}, (_, i) => i);
    for (const value of [new Uint8Array(0), all.subarray(0, 1), all.subarray(250, 256), all, bytes(5_000, 7)]) {
      const wire = crossed(toWire(value));
      expect(typeof wire).toBe("string");
      expect(fromWire(wire)).toEqual(value);
    }
    // A view into a larger buffer crosses as its own bytes only.
    const view = all.subarray(10, 42);
    expect(fromWire(toWire(view))).toEqual(Uint8Array.from({length: 32}, (_, i) => i + 10));
    expect(fromWire(toWire(bytes(300, 3))).buffer.byteLength).toBe(300);
  });

  it("crosses a call's input without a typed array and rebuilds it whole", () => {
    const view: ExecutionChainView = {blockHash: async () => undefined, remasc: undefined, headers: NO_CHAIN_HEADERS};
    const input: CallInput = {
      block: {
        number: 12,
        timestamp: 1_700_000_000,
        coinbase: bytes(20, 1),
        difficulty: 131_072n,
        gasLimit: 6_800_000n,
        minimumGasPrice: 60_000_000n,
      },
      chain: view,
      stateRoot: bytes(32, 2),
      from: bytes(20, 3),
      to: bytes(20, 4),
      value: 5n,
      data: hexToBytes("70a08231000000000000000000000000ff00000000000000000000000000000000000080"),
      gasLimit: 50_000_000n,
      gasPrice: 7n,
      intrinsicGas: 21_576n,
      parentHash: bytes(32, 5),
      overrides: [{address: bytes(20, 6), balance: 9n, stateDiff: [[bytes(32, 7), bytes(32, 8)]]}],
    };
    const portable = crossed(toPortableInput(input, bytes(32, 5)));
    const {overrides, ...plain} = input;
    expect(holdsTypedArray(portable.filter((field) => field !== portable[13]))).toBe(false);
    const asked: [number, Uint8Array][] = [];
    const stop = {aborted: false};
    const rebuilt = fromPortableInput(
      portable,
      {
        view: (number, parentHash) => {
          asked.push([number, parentHash]);
          return view;
        },
      },
      stop,
    );
    expect(rebuilt).toEqual({...plain, overrides, signal: stop});
    expect(asked).toEqual([[12, bytes(32, 5)]]);
  });

  it("keeps a contract creation's missing fields missing", () => {
    const portable = crossed(
      toPortableInput(
        {
          block: {
            number: 1,
            timestamp: 2,
            coinbase: bytes(20, 1),
            difficulty: 1n,
            gasLimit: 1n,
            minimumGasPrice: 0n,
          },
          chain: NO_VIEW,
          stateRoot: bytes(32, 2),
          from: bytes(20, 3),
          gasLimit: 100_000n,
        },
        bytes(32, 4),
      ),
    );
    const rebuilt = fromPortableInput(portable, {view: () => NO_VIEW}, undefined);
    for (const field of ["to", "value", "data", "gasPrice", "intrinsicGas", "overrides"] as const) {
      expect(rebuilt[field]).toBeUndefined();
    }
  });

  it("crosses a result with its logs, and a failed one with its revert data, as they were", () => {
    const success: CallResult = {
      status: true,
      gasUsed: 23_000n,
      gasRefund: 0n,
      returnValue: bytes(32, 9),
      logs: [
        {address: bytes(20, 1), topics: [bytes(32, 2), bytes(32, 3)], data: bytes(64, 4)},
        {address: bytes(20, 5), topics: [], data: new Uint8Array(0)},
      ],
      contractAddress: bytes(20, 6),
    };
    const reverted: CallResult = {
      status: false,
      gasUsed: 30_000n,
      gasRefund: 0n,
      returnValue: bytes(68, 7),
      logs: [],
      revertData: bytes(68, 7),
      error: "revert",
    };
    for (const result of [success, reverted]) {
      const portable = crossed(toPortableResult(result));
      expect(holdsTypedArray(portable)).toBe(false);
      expect(fromPortableResult(portable)).toStrictEqual(result);
    }
  });
});
