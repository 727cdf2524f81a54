/** Strict readers of genesis JSON values; each failure is a `GenesisError` naming the key's path. */
import {hexToBytesOrNull} from "@xchain/utils";
import {GenesisError, GenesisErrorCode} from "./errors.ts";

/** A JSON object being read: its keys are checked against what the schema allows. */
export type JsonObject = Record<string, unknown>;

function bad(key: string, expected: string): never {
  throw new GenesisError({code: GenesisErrorCode.BAD_VALUE, key, expected});
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
  if (typeof value !== "string" || !value.startsWith("0x")) bad(key, expected);
  const bytes = hexToBytesOrNull(value.slice(2));
  if (bytes === null || (maxBytes !== undefined && bytes.length > maxBytes)) bad(key, expected);
  return bytes;
}

/** Exactly `length` bytes of `0x`-prefixed hex (addresses). */
export function readFixedHex(value: unknown, key: string, length: number): Uint8Array {
  const bytes = readHexBytes(value, key);
  if (bytes.length !== length) bad(key, `0x-prefixed hex of ${length} bytes`);
  return bytes;
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;
const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/;

/**
 * A non-negative integer of at most `maxBits` bits: a JSON safe integer, a decimal string (rskj's
 * balances) or `0x`-prefixed hex (geth's; leading zeros allowed, as genesis files write `0x00`).
 */
export function readQuantity(value: unknown, key: string, maxBits = 256): bigint {
  const expected = `a non-negative integer below 2^${maxBits} (number, decimal string or 0x hex)`;
  let result: bigint | undefined;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) result = BigInt(value);
  if (typeof value === "string" && (DECIMAL.test(value) || HEX_QUANTITY.test(value))) result = BigInt(value);
  if (result === undefined || result >> BigInt(maxBits) !== 0n) bad(key, expected);
  return result;
}
