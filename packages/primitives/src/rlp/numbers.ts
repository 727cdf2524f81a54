/**
 * The number encodings Rootstock uses inside RLP (docs/protocol/encoding.md). They differ only in how
 * zero is written and whether a sign byte is added; decoders accept what rskj accepts and keep
 * range limits explicit. A field's raw bytes are kept separately wherever they are hashed.
 */
import {bigIntToBytes, bigIntToSignedBytes, bytesToBigInt, NodeError} from "@xchain/utils";

export enum NumberErrorCode {
  NEGATIVE = "NUMBER_NEGATIVE",
  OUT_OF_RANGE = "NUMBER_OUT_OF_RANGE",
}

export type NumberErrorType =
  | {code: NumberErrorCode.NEGATIVE; field: string}
  | {code: NumberErrorCode.OUT_OF_RANGE; field: string; maxBits: number};

/** A numeric RLP field that is negative or too large for its type. */
export class NumberError extends NodeError<NumberErrorType> {}

/** Unsigned, minimal; zero is the empty string (`0x80`). Block number, gasUsed, timestamp, paidFees, uncleCount. */
export const encodeUnsigned = bigIntToBytes;

/** rskj `BigInteger.toByteArray()`: minimal two's complement, zero is `0x00`. Difficulty, minimumGasPrice, balances. */
export const encodeSigned = bigIntToSignedBytes;

/** Transaction gasPrice ("coin, non-null zero"): minimal unsigned, but zero is the single byte `0x00`. */
export function encodeCoinNonNullZero(value: bigint): Uint8Array {
  return value === 0n ? new Uint8Array([0]) : bigIntToBytes(value);
}

/** Transaction value ("coin, null zero"): minimal unsigned, zero is the empty string. */
export const encodeCoinNullZero = bigIntToBytes;

/** Decodes big-endian unsigned bytes (leading zeros tolerated, as rskj does) limited to `maxBits`. */
export function decodeUnsigned(bytes: Uint8Array, field: string, maxBits = 256): bigint {
  const value = bytesToBigInt(bytes);
  if (value >> BigInt(maxBits) !== 0n) {
    throw new NumberError({code: NumberErrorCode.OUT_OF_RANGE, field, maxBits}, `${field} exceeds ${maxBits} bits`);
  }
  return value;
}

/** Decodes an unsigned value that must fit a JavaScript safe integer (heights, timestamps, counts). */
export function decodeSafeInteger(bytes: Uint8Array, field: string): number {
  return Number(decodeUnsigned(bytes, field, 53));
}

/** Decodes Java-style signed big-endian bytes and refuses negatives (rskj rejects negative difficulty and mgp). */
export function decodeNonNegativeSigned(bytes: Uint8Array, field: string): bigint {
  if (bytes.length > 0 && (bytes[0] as number) & 0x80) {
    throw new NumberError({code: NumberErrorCode.NEGATIVE, field}, `${field} is negative`);
  }
  return bytesToBigInt(bytes);
}
