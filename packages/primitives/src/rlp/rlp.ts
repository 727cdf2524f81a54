/**
 * RLP framing. Decoding is strict (canonical length prefixes only, no trailing bytes, bounded
 * nesting) and keeps each string item as the exact bytes received, because Rootstock hashes
 * raw field bytes that are not always canonical numbers (docs/protocol/encoding.md). Decoded strings
 * are views into the input buffer: copy them if the input will be reused.
 */
import {NodeError} from "@xchain/utils";

/** A decoded RLP item: a byte string or a list of items. */
export type RlpItem = Uint8Array | RlpItem[];

export enum RlpErrorCode {
  EMPTY_INPUT = "RLP_EMPTY_INPUT",
  TRUNCATED = "RLP_TRUNCATED",
  TRAILING_BYTES = "RLP_TRAILING_BYTES",
  NON_CANONICAL_SIZE = "RLP_NON_CANONICAL_SIZE",
  NON_CANONICAL_SINGLE_BYTE = "RLP_NON_CANONICAL_SINGLE_BYTE",
  TOO_DEEP = "RLP_TOO_DEEP",
  EXPECTED_LIST = "RLP_EXPECTED_LIST",
  EXPECTED_STRING = "RLP_EXPECTED_STRING",
}

export type RlpErrorType =
  | {code: RlpErrorCode.EMPTY_INPUT}
  | {code: RlpErrorCode.TRUNCATED; offset: number}
  | {code: RlpErrorCode.TRAILING_BYTES; offset: number}
  | {code: RlpErrorCode.NON_CANONICAL_SIZE; offset: number}
  | {code: RlpErrorCode.NON_CANONICAL_SINGLE_BYTE; offset: number}
  | {code: RlpErrorCode.TOO_DEEP; maxDepth: number}
  | {code: RlpErrorCode.EXPECTED_LIST; what: string}
  | {code: RlpErrorCode.EXPECTED_STRING; what: string};

/** Malformed RLP. */
export class RlpError extends NodeError<RlpErrorType> {}

/** Nesting deeper than this is refused (no real structure needs more than a few levels). */
export const MAX_RLP_DEPTH = 16;

/** Decodes exactly one RLP item spanning all of `bytes`. */
export function decodeRlp(bytes: Uint8Array): RlpItem {
  if (bytes.length === 0) throw new RlpError({code: RlpErrorCode.EMPTY_INPUT}, "RLP: empty input");
  const [item, end] = decodeAt(bytes, 0, bytes.length, 0);
  if (end !== bytes.length) {
    throw new RlpError({code: RlpErrorCode.TRAILING_BYTES, offset: end}, `RLP: trailing bytes at offset ${end}`);
  }
  return item;
}

/** Decodes one RLP item that must be a list; `what` names it in the error. */
export function decodeRlpList(bytes: Uint8Array, what: string): RlpItem[] {
  const item = decodeRlp(bytes);
  if (!Array.isArray(item)) throw expected(RlpErrorCode.EXPECTED_LIST, what);
  return item;
}

/** Narrows an item to a byte string; `what` names it in the error. */
export function asBytes(item: RlpItem | undefined, what: string): Uint8Array {
  if (!(item instanceof Uint8Array)) throw expected(RlpErrorCode.EXPECTED_STRING, what);
  return item;
}

/** Narrows an item to a list; `what` names it in the error. */
export function asList(item: RlpItem | undefined, what: string): RlpItem[] {
  if (!Array.isArray(item)) throw expected(RlpErrorCode.EXPECTED_LIST, what);
  return item;
}

function expected(code: RlpErrorCode.EXPECTED_LIST | RlpErrorCode.EXPECTED_STRING, what: string): RlpError {
  const kind = code === RlpErrorCode.EXPECTED_LIST ? "a list" : "a byte string";
  return new RlpError({code, what}, `RLP: ${what} must be ${kind}`);
}

function truncated(offset: number): RlpError {
  return new RlpError({code: RlpErrorCode.TRUNCATED, offset}, `RLP: input truncated at offset ${offset}`);
}

function nonCanonical(offset: number): RlpError {
  return new RlpError({code: RlpErrorCode.NON_CANONICAL_SIZE, offset}, `RLP: non-canonical length at offset ${offset}`);
}

/** Reads a long-form length of `lenOfLen` bytes at `offset`; must be minimal and > 55. */
function readLength(bytes: Uint8Array, offset: number, lenOfLen: number, limit: number): number {
  if (offset + lenOfLen > limit) throw truncated(offset);
  if (bytes[offset] === 0) throw nonCanonical(offset);
  let length = 0;
  for (let i = 0; i < lenOfLen; i++) length = length * 256 + (bytes[offset + i] as number);
  if (length <= 55) throw nonCanonical(offset);
  return length;
}

function decodeAt(bytes: Uint8Array, offset: number, limit: number, depth: number): [RlpItem, number] {
  if (offset >= limit) throw truncated(offset);
  const prefix = bytes[offset] as number;
  if (prefix < 0x80) return [bytes.subarray(offset, offset + 1), offset + 1];
  if (prefix <= 0xb7) {
    const length = prefix - 0x80;
    const start = offset + 1;
    if (start + length > limit) throw truncated(offset);
    if (length === 1 && (bytes[start] as number) < 0x80) {
      throw new RlpError(
        {code: RlpErrorCode.NON_CANONICAL_SINGLE_BYTE, offset},
        `RLP: single byte below 0x80 with a length prefix at offset ${offset}`,
      );
    }
    return [bytes.subarray(start, start + length), start + length];
  }
  if (prefix < 0xc0) {
    const lenOfLen = prefix - 0xb7;
    const length = readLength(bytes, offset + 1, lenOfLen, limit);
    const start = offset + 1 + lenOfLen;
    if (start + length > limit) throw truncated(offset);
    return [bytes.subarray(start, start + length), start + length];
  }
  if (depth >= MAX_RLP_DEPTH) {
    throw new RlpError({code: RlpErrorCode.TOO_DEEP, maxDepth: MAX_RLP_DEPTH}, "RLP: nesting too deep");
  }
  let start: number;
  let length: number;
  if (prefix <= 0xf7) {
    length = prefix - 0xc0;
    start = offset + 1;
  } else {
    const lenOfLen = prefix - 0xf7;
    length = readLength(bytes, offset + 1, lenOfLen, limit);
    start = offset + 1 + lenOfLen;
  }
  const end = start + length;
  if (end > limit) throw truncated(offset);
  const items: RlpItem[] = [];
  let cursor = start;
  while (cursor < end) {
    const [item, next] = decodeAt(bytes, cursor, end, depth + 1);
    items.push(item);
    cursor = next;
  }
  return [items, end];
}

/** Encodes an item with canonical framing. */
export function encodeRlp(item: RlpItem): Uint8Array {
  const out = new Uint8Array(encodedLength(item));
  const end = writeItem(out, 0, item);
  if (end !== out.length) throw new Error("RLP encoder length mismatch");
  return out;
}

function headerLength(payloadLength: number): number {
  if (payloadLength <= 55) return 1;
  let n = 1;
  for (let v = payloadLength; v >= 256; v = Math.floor(v / 256)) n++;
  return 1 + n;
}

function payloadLengthOf(item: RlpItem): number {
  if (item instanceof Uint8Array) return item.length;
  let total = 0;
  for (const child of item) total += encodedLength(child);
  return total;
}

function encodedLength(item: RlpItem): number {
  if (item instanceof Uint8Array && item.length === 1 && (item[0] as number) < 0x80) return 1;
  const payload = payloadLengthOf(item);
  return headerLength(payload) + payload;
}

function writeHeader(out: Uint8Array, offset: number, payloadLength: number, shortBase: number): number {
  if (payloadLength <= 55) {
    out[offset] = shortBase + payloadLength;
    return offset + 1;
  }
  const lenBytes: number[] = [];
  for (let v = payloadLength; v > 0; v = Math.floor(v / 256)) lenBytes.unshift(v % 256);
  out[offset] = shortBase + 55 + lenBytes.length;
  out.set(lenBytes, offset + 1);
  return offset + 1 + lenBytes.length;
}

function writeItem(out: Uint8Array, offset: number, item: RlpItem): number {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && (item[0] as number) < 0x80) {
      out[offset] = item[0] as number;
      return offset + 1;
    }
    const start = writeHeader(out, offset, item.length, 0x80);
    out.set(item, start);
    return start + item.length;
  }
  let cursor = writeHeader(out, offset, payloadLengthOf(item), 0xc0);
  for (const child of item) cursor = writeItem(out, cursor, child);
  return cursor;
}
