/**
 * Strict readers of RLP items for xchain's messages: every failure is a `P2PError`
 * INVALID_MESSAGE, whatever threw it (RLP framing, a header or transaction decoder, a range).
 * Numbers are minimal big-endian (no leading zero byte), hashes exactly 32 bytes.
 */

import {BlockHeader, decodeRlp, type HeaderEncodingRules, type RlpItem} from "@xchain/primitives";
import {bigIntToBytes} from "@xchain/utils";
import {P2PError, P2PErrorCode} from "../errors.ts";

export const HASH_LENGTH = 32;

/** A P2PError INVALID_MESSAGE (every decoding failure). */
export function invalidMessage(reason: string): P2PError {
  return new P2PError({code: P2PErrorCode.INVALID_MESSAGE, reason});
}

/** A P2PError INVALID_REQUEST (a request of ours that breaks the caps; nothing is sent). */
export function invalidRequest(reason: string): P2PError {
  return new P2PError({code: P2PErrorCode.INVALID_REQUEST, reason});
}

/** Runs a decoder, turning anything it throws into INVALID_MESSAGE (a P2PError passes through). */
export function guard<T>(what: string, decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    if (e instanceof P2PError) throw e;
    const reason = e instanceof Error ? e.message : String(e);
    throw invalidMessage(`${what}: ${reason}`);
  }
}

/** Decodes a whole message that must be one RLP list. */
export function decodeList(bytes: Uint8Array, what: string): RlpItem[] {
  const item = guard(what, () => decodeRlp(bytes));
  return list(item, what);
}

/** Narrows to a list. */
export function list(item: RlpItem | undefined, what: string): RlpItem[] {
  if (!Array.isArray(item)) throw invalidMessage(`${what} must be a list`);
  return item;
}

/** Narrows to a list of exactly `length` items. */
export function tuple(item: RlpItem | undefined, length: number, what: string): RlpItem[] {
  const items = list(item, what);
  if (items.length !== length) throw invalidMessage(`${what} has ${items.length} items, expected ${length}`);
  return items;
}

/** Narrows to a list of at most `max` items. */
export function boundedList(item: RlpItem | undefined, max: number, what: string): RlpItem[] {
  const items = list(item, what);
  if (items.length > max) throw invalidMessage(`${what} has ${items.length} items, at most ${max} allowed`);
  return items;
}

/** Narrows to a byte string. */
export function bytes(item: RlpItem | undefined, what: string): Uint8Array {
  if (!(item instanceof Uint8Array)) throw invalidMessage(`${what} must be a byte string`);
  return item;
}

/** A 32-byte hash. */
export function hash(item: RlpItem | undefined, what: string): Uint8Array {
  const value = bytes(item, what);
  if (value.length !== HASH_LENGTH) throw invalidMessage(`${what} has ${value.length} bytes, expected 32`);
  return value;
}

/** A minimal unsigned big-endian number of at most `maxBits` bits. */
export function uint(item: RlpItem | undefined, what: string, maxBits: number): bigint {
  const value = bytes(item, what);
  if (value.length > 0 && value[0] === 0) throw invalidMessage(`${what} has a leading zero byte`);
  if (value.length * 8 > maxBits + 7) throw invalidMessage(`${what} exceeds ${maxBits} bits`);
  let n = 0n;
  for (const b of value) n = (n << 8n) | BigInt(b);
  if (n >> BigInt(maxBits) !== 0n) throw invalidMessage(`${what} exceeds ${maxBits} bits`);
  return n;
}

/** A minimal unsigned number that fits a JavaScript safe integer. */
export function safeInteger(item: RlpItem | undefined, what: string): number {
  return Number(uint(item, what, 53));
}

/** The minimal encoding of a non-negative integer (0 is the empty string). */
export function encodeUint(value: number | bigint): Uint8Array {
  return bigIntToBytes(BigInt(value));
}

/** A header from its full encoding's elements. */
export function header(item: RlpItem | undefined, rules: HeaderEncodingRules, what: string): BlockHeader {
  const items = list(item, what);
  return guard(what, () => BlockHeader.fromRlpItems(items, rules));
}

/** The RLP list of items that are already encoded (their bytes concatenated after the list prefix). */
export function encodeListOfEncoded(items: readonly Uint8Array[]): Uint8Array {
  let payload = 0;
  for (const item of items) payload += item.length;
  const lengthBytes: number[] = [];
  for (let v = payload; v > 0; v = Math.floor(v / 256)) lengthBytes.unshift(v % 256);
  const prefix = payload <= 55 ? [0xc0 + payload] : [0xf7 + lengthBytes.length, ...lengthBytes];
  const out = new Uint8Array(prefix.length + payload);
  out.set(prefix, 0);
  let offset = prefix.length;
  for (const item of items) {
    out.set(item, offset);
    offset += item.length;
  }
  return out;
}
