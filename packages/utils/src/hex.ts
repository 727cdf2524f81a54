/**
 * Strict codecs for the JSON-RPC hex types (docs/rpc.md §4): QUANTITY (`0x`-prefixed, no leading
 * zeros, `0x0` for zero) and DATA (`0x`-prefixed, two hex digits per byte, optionally an exact
 * length such as DATA20 for addresses or DATA32 for hashes). Every failure is a `HexError` that
 * names the offending argument, so the RPC layer can turn it into -32602 without rewording.
 */
import {bytesToHex, hexToBytesOrNull} from "./bytes.ts";
import {NodeError} from "./errors.ts";

export enum HexErrorCode {
  NOT_A_STRING = "HEX_NOT_A_STRING",
  MISSING_PREFIX = "HEX_MISSING_PREFIX",
  EMPTY_QUANTITY = "HEX_EMPTY_QUANTITY",
  LEADING_ZERO = "HEX_LEADING_ZERO",
  INVALID_CHARACTER = "HEX_INVALID_CHARACTER",
  ODD_LENGTH = "HEX_ODD_LENGTH",
  WRONG_LENGTH = "HEX_WRONG_LENGTH",
  TOO_LARGE = "HEX_TOO_LARGE",
}

export type HexErrorType =
  | {code: HexErrorCode.NOT_A_STRING; arg: string; actualType: string}
  | {code: HexErrorCode.MISSING_PREFIX; arg: string}
  | {code: HexErrorCode.EMPTY_QUANTITY; arg: string}
  | {code: HexErrorCode.LEADING_ZERO; arg: string}
  | {code: HexErrorCode.INVALID_CHARACTER; arg: string}
  | {code: HexErrorCode.ODD_LENGTH; arg: string; digits: number}
  | {code: HexErrorCode.WRONG_LENGTH; arg: string; expectedBytes: number; actualBytes: number}
  | {code: HexErrorCode.TOO_LARGE; arg: string; maxBits: number};

/** A hex argument that is not valid for its type; the message names the argument. */
export class HexError extends NodeError<HexErrorType> {}

function describe(type: HexErrorType): string {
  switch (type.code) {
    case HexErrorCode.NOT_A_STRING:
      return `${type.arg}: expected a hex string, got ${type.actualType}`;
    case HexErrorCode.MISSING_PREFIX:
      return `${type.arg}: hex string without 0x prefix`;
    case HexErrorCode.EMPTY_QUANTITY:
      return `${type.arg}: hex string "0x" is not a quantity`;
    case HexErrorCode.LEADING_ZERO:
      return `${type.arg}: hex number with leading zero digits`;
    case HexErrorCode.INVALID_CHARACTER:
      return `${type.arg}: invalid hex character`;
    case HexErrorCode.ODD_LENGTH:
      return `${type.arg}: hex string of odd length ${type.digits}`;
    case HexErrorCode.WRONG_LENGTH:
      return `${type.arg}: hex string has length ${type.actualBytes * 2}, want ${type.expectedBytes * 2}`;
    case HexErrorCode.TOO_LARGE:
      return `${type.arg}: hex number larger than ${type.maxBits} bits`;
  }
}

function fail(type: HexErrorType): never {
  throw new HexError(type, describe(type));
}

function digitsOf(value: unknown, arg: string): string {
  if (typeof value !== "string") fail({code: HexErrorCode.NOT_A_STRING, arg, actualType: jsonTypeOf(value)});
  if (!value.startsWith("0x")) fail({code: HexErrorCode.MISSING_PREFIX, arg});
  return value.slice(2);
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

const HEX_DIGITS = /^[0-9a-fA-F]*$/;

/** Parses a QUANTITY into a bigint, at most `maxBits` bits (256 by default). */
export function parseQuantity(value: unknown, arg: string, maxBits = 256): bigint {
  const digits = digitsOf(value, arg);
  if (digits.length === 0) fail({code: HexErrorCode.EMPTY_QUANTITY, arg});
  if (!HEX_DIGITS.test(digits)) fail({code: HexErrorCode.INVALID_CHARACTER, arg});
  if (digits.length > 1 && digits[0] === "0") fail({code: HexErrorCode.LEADING_ZERO, arg});
  const result = BigInt(`0x${digits}`);
  if (result >> BigInt(maxBits) !== 0n) fail({code: HexErrorCode.TOO_LARGE, arg, maxBits});
  return result;
}

/** Parses a QUANTITY that must fit a JavaScript safe integer (block numbers, indexes, counts). */
export function parseQuantityNumber(value: unknown, arg: string): number {
  return Number(parseQuantity(value, arg, 53));
}

/** Parses DATA; with `length`, the decoded bytes must be exactly that long (DATA20, DATA32, DATA256). */
export function parseData(value: unknown, arg: string, length?: number): Uint8Array {
  const digits = digitsOf(value, arg);
  if (digits.length % 2 !== 0) fail({code: HexErrorCode.ODD_LENGTH, arg, digits: digits.length});
  const bytes = hexToBytesOrNull(digits);
  if (bytes === null) fail({code: HexErrorCode.INVALID_CHARACTER, arg});
  if (length !== undefined && bytes.length !== length) {
    fail({code: HexErrorCode.WRONG_LENGTH, arg, expectedBytes: length, actualBytes: bytes.length});
  }
  return bytes;
}

/** Encodes a non-negative integer as a QUANTITY (`0x0`, `0x1f`, ...). */
export function toQuantity(value: bigint | number): string {
  if (value < 0) throw new RangeError(`negative quantity ${value}`);
  return `0x${value.toString(16)}`;
}

/** Encodes bytes as DATA (`0x` + two digits per byte; `0x` for empty). */
export function toData(bytes: Uint8Array): string {
  return `0x${bytesToHex(bytes)}`;
}
