import {EVMError, type PrecompileFunc} from "@ethereumjs/evm";
import {bytesToBigInt} from "@ethereumjs/util";

/** The address of the modexp precompile, as `customPrecompiles` takes it. */
export const MODEXP_PRECOMPILE_ADDRESS = "0x0000000000000000000000000000000000000005" as const;
const GQUAD_DIVISOR = 20n;
// Gas for the built-in call, which only computes the result here: enough for any input whose
// EIP-198 price fits a block.
const UNLIMITED = 1n << 64n;

/** Reads `length` bytes at `offset` of the input, zero-padded beyond its end (EIP-198). */
function slice(data: Uint8Array, offset: bigint, length: bigint): bigint {
  if (length === 0n) return 0n;
  const out = new Uint8Array(Number(length));
  if (offset < BigInt(data.length)) out.set(data.subarray(Number(offset), Number(offset + length)));
  return bytesToBigInt(out);
}

function multiplicationComplexity(x: bigint): bigint {
  if (x <= 64n) return x * x;
  if (x <= 1024n) return (x * x) / 4n + 96n * x - 3072n;
  return (x * x) / 16n + 480n * x - 199680n;
}

/**
 * rskj's modexp price (docs/protocol/gas.md §6.1, EIP-198): multComplexity(max(bLen, mLen)) × max(adjusted
 * exponent length, 1) / 20, with no minimum.
 */
export function modexpGas(data: Uint8Array): bigint {
  const bLen = slice(data, 0n, 32n);
  const eLen = slice(data, 32n, 32n);
  const mLen = slice(data, 64n, 32n);
  const headLength = eLen < 32n ? eLen : 32n;
  // The highest set bit of the exponent's first (at most 32) bytes, counted from 0.
  const head = slice(data, 96n + bLen, headLength);
  const highestBit = head === 0n ? 0n : BigInt(head.toString(2).length - 1);
  const adjusted = eLen > 32n ? 8n * (eLen - 32n) + highestBit : highestBit;
  const maxLength = bLen > mLen ? bLen : mLen;
  return (multiplicationComplexity(maxLength) * (adjusted > 1n ? adjusted : 1n)) / GQUAD_DIVISOR;
}

/**
 * The 0x05 precompile priced as rskj prices it: @ethereumjs/evm's own modexp (EIP-2565 pricing)
 * computes the result, the EIP-198 price replaces its gas.
 */
export function modexpEip198(builtin: PrecompileFunc): PrecompileFunc {
  return async (input) => {
    const gas = modexpGas(input.data);
    if (gas > input.gasLimit) {
      return {
        returnValue: new Uint8Array(0),
        executionGasUsed: input.gasLimit,
        exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS),
      };
    }
    const result = await builtin({...input, gasLimit: UNLIMITED});
    if (result.exceptionError) return {...result, executionGasUsed: input.gasLimit};
    return {...result, executionGasUsed: gas};
  };
}
