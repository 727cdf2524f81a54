/**
 * rskj's semantics for the Ethereum-numbered precompiles that can fail (docs/protocol/gas.md §6.1): the price
 * (`getGasForData`) is charged first — all the forwarded gas when it does not fit — and a failure after that
 * charges only the price and answers nothing (RSKIP-197, `Program.executePrecompiledAndHandleError`), where
 * @ethereumjs/evm burns all the forwarded gas. The failure ends the frame as a native contract's does
 * (`NATIVE_CONTRACT_FAILURE_ERROR`), so a transaction sent straight to one gets status 1, as rskj's
 * `TransactionExecutor` gives it. An internal call's input is cut to the precompile's maximum first (RSKIP-516,
 * `Program.getInputLength`); a transaction's own input never is.
 */
import type {Common} from "@ethereumjs/common";
import {type CustomPrecompile, EVMError, getActivePrecompiles, type PrecompileFunc} from "@ethereumjs/evm";
import {type MessageTracker, nativeFailureResult} from "../native/dispatch/adapter.ts";

// Gas for the built-in call, which only computes the result here: the price was checked before.
const UNLIMITED = 1n << 64n;

interface RskjPricing {
  /** rskj's `getGasForData` of the (cut) input. */
  price(data: Uint8Array): bigint;
  /** rskj's `getMaxInput`: the longest input an internal call hands over; undefined for no limit. */
  maxInput?: number;
}

const BLAKE2F_INPUT_LENGTH = 213;

/** The precompiles whose failures rskj prices differently, by address byte (co/rsk/pcc/altBN128, PrecompiledContracts.Blake2F). */
const PRICING: ReadonlyMap<number, RskjPricing> = new Map([
  [0x06, {price: () => 150n, maxInput: 128}],
  [0x07, {price: () => 6_000n, maxInput: 96}],
  [0x08, {price: (data: Uint8Array) => 45_000n + 34_000n * BigInt(Math.floor(data.length / 192))}],
  [
    0x09,
    {
      // A wrong length cannot name its rounds: rskj prices it 0, and it fails.
      price: (data: Uint8Array) =>
        data.length === BLAKE2F_INPUT_LENGTH
          ? BigInt(new DataView(data.buffer, data.byteOffset, 4).getUint32(0, false))
          : 0n,
      maxInput: BLAKE2F_INPUT_LENGTH,
    },
  ],
]);

function priceFirst(builtin: PrecompileFunc, pricing: RskjPricing, messages: MessageTracker): PrecompileFunc {
  return async (input) => {
    // A programming error of the wiring, not a failure of the precompile: the EVM's own message must be known.
    if (!messages.current) throw new Error("a precompile ran without its message");
    const internal = messages.current.depth > 0;
    const data =
      internal && pricing.maxInput !== undefined && input.data.length > pricing.maxInput
        ? input.data.subarray(0, pricing.maxInput)
        : input.data;
    const price = pricing.price(data);
    if (price > input.gasLimit) {
      return {
        returnValue: new Uint8Array(0),
        executionGasUsed: input.gasLimit,
        exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS),
      };
    }
    const result = await builtin({...input, data, gasLimit: UNLIMITED});
    return result.exceptionError ? nativeFailureResult(price) : {...result, executionGasUsed: price};
  };
}

/** The `customPrecompiles` entries of 0x06–0x09 with rskj's pricing and failures, reading the depth from `messages`. */
export function priceFirstPrecompiles(common: Common, messages: MessageTracker): CustomPrecompile[] {
  const active = getActivePrecompiles(common);
  const entries: CustomPrecompile[] = [];
  for (const [byte, pricing] of PRICING) {
    const hex = byte.toString(16).padStart(40, "0");
    const builtin = active.get(hex);
    if (builtin) entries.push({address: `0x${hex}`, function: priceFirst(builtin, pricing, messages)});
  }
  return entries;
}
