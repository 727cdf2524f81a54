/** Strict readers of genesis JSON values; each failure is a `GenesisError` naming the key's path. */
import {hexToBytesOrNull} from "@xchain/utils";
import {GenesisError, GenesisErrorCode} from "./errors.ts";

/** A JSON object being read: its keys are checked against what the schema allows. */
export type JsonObject = Record<string, unknown>;

function bad(key: string, expected: string, found?: string): never {
  throw new GenesisError({code: GenesisErrorCode.BAD_VALUE, key, expected, ...(found === undefined ? {} : {found})});
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;
const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/;
/** Longest value quoted back in an error. */
const MAX_QUOTED = 40;

/** `value` as the error quotes it: a string in quotes (cut short), else its JSON type. */
function quote(value: unknown): string {
  if (typeof value === "string")
    return JSON.stringify(value.length > MAX_QUOTED ? `${value.slice(0, MAX_QUOTED)}…` : value);
  return typeof value === "number"
    ? String(value)
    : `a ${value === null ? "null" : Array.isArray(value) ? "list" : typeof value}`;
}

/** What is wrong with `value` as `0x` hex of whole bytes, for the error (undefined when nothing is). */
function hexProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return quote(value);
  const quoted = quote(value);
  if (!value.startsWith("0x")) return `${quoted} (no 0x prefix)`;
  const bad = [...value.slice(2)].findIndex((c) => !/[0-9a-fA-F]/.test(c));
  if (bad >= 0) return `${quoted} (${JSON.stringify(value[bad + 2])} at offset ${bad + 2} is not a hex digit)`;
  if (value.length % 2 === 1) return `${quoted} (${value.length - 2} hex digits: bytes take two each)`;
  return undefined;
}

/** `value` as a JSON object whose keys are all in `allowed` (when given). */
export function readObject(value: unknown, key: string, allowed?: readonly string[]): JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) bad(key, "an object");
  const object = value as JsonObject;
  if (allowed) {
    const unknown = Object.keys(object).find((k) => !allowed.includes(k));
    if (unknown !== undefined) {
      throw new GenesisError({code: GenesisErrorCode.UNKNOWN_KEY, key: key ? `${key}.${unknown}` : unknown});
    }
  }
  return object;
}

/** The value of a required key. */
export function required(object: JsonObject, name: string, path: string): unknown {
  if (!Object.hasOwn(object, name)) throw new GenesisError({code: GenesisErrorCode.MISSING_KEY, key: path});
  return object[name];
}

/** `0x`-prefixed hex of whole bytes (any length, leading zeros kept), optionally at most `maxBytes`. */
export function readHexBytes(value: unknown, key: string, maxBytes?: number): Uint8Array {
  const expected = maxBytes === undefined ? "0x-prefixed hex bytes" : `0x-prefixed hex of at most ${maxBytes} bytes`;
  const problem = hexProblem(value);
  if (problem !== undefined) bad(key, expected, problem);
  const bytes = hexToBytesOrNull((value as string).slice(2));
  if (bytes === null) bad(key, expected);
  if (maxBytes !== undefined && bytes.length > maxBytes) bad(key, expected, `${bytes.length} bytes`);
  return bytes;
}

/**
 * A header quantity kept as bytes (difficulty, gasLimit): `0x` hex whose even-length digits are kept
 * as written, leading zero bytes included (rskj's form, which the genesis hash depends on); an odd
 * digit count, as geth writes quantities (`"0x1"`), is read as the number it is, one `0` nibble in
 * front (`0x01`). At most `maxBytes` bytes.
 */
export function readQuantityBytes(value: unknown, key: string, maxBytes: number): Uint8Array {
  const padded = typeof value === "string" && HEX_QUANTITY.test(value) && value.length % 2 === 1;
  return readHexBytes(padded ? `0x0${value.slice(2)}` : value, key, maxBytes);
}

/** Exactly `length` bytes of `0x`-prefixed hex (addresses). */
export function readFixedHex(value: unknown, key: string, length: number): Uint8Array {
  const bytes = readHexBytes(value, key);
  if (bytes.length !== length) bad(key, `0x-prefixed hex of ${length} bytes`);
  return bytes;
}

/**
 * A non-negative integer of at most `maxBits` bits: a JSON safe integer, a decimal string (rskj's
 * balances) or `0x`-prefixed hex (geth's; leading zeros allowed, as genesis files write `0x00`).
 */
export function readQuantity(value: unknown, key: string, maxBits = 256): bigint {
  const expected = `a non-negative integer below 2^${maxBits} (number, decimal string or 0x hex)`;
  let result: bigint | undefined;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) result = BigInt(value);
  if (typeof value === "string" && (DECIMAL.test(value) || HEX_QUANTITY.test(value))) result = BigInt(value);
  if (result === undefined) {
    const hexIssue = typeof value === "string" && value.startsWith("0x") ? hexProblem(value) : undefined;
    bad(key, expected, hexIssue ?? quote(value));
  }
  if (result >> BigInt(maxBits) !== 0n) bad(key, expected, `${quote(value)} (${result.toString(2).length} bits)`);
  return result;
}
