/** Byte-array helpers shared by every package. All functions treat inputs as read-only. */

/** Concatenates byte arrays into a new array. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** True when both arrays hold the same bytes. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Unsigned lexicographic comparison: negative, zero or positive like `Array.sort` expects. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** Index of the last occurrence of `needle` in `haystack`, or -1. */
export function lastIndexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  if (needle.length === 0) return haystack.length;
  outer: for (let i = haystack.length - needle.length; i >= 0; i--) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Returns a reversed copy (Bitcoin internal order <-> display order). */
export function reverseBytes(bytes: Uint8Array): Uint8Array {
  return Uint8Array.from(bytes).reverse();
}

/** Big-endian unsigned integer of the bytes; empty is 0. */
export function bytesToBigInt(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

/** Minimal big-endian unsigned bytes of a non-negative integer; 0 gives an empty array. */
export function bigIntToBytes(value: bigint): Uint8Array {
  if (value < 0n) throw new RangeError(`negative value ${value}`);
  if (value === 0n) return new Uint8Array(0);
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return hexToBytesUnchecked(hex);
}

/** Big-endian unsigned bytes of `value` left-padded to exactly `length` bytes. */
export function bigIntToFixedBytes(value: bigint, length: number): Uint8Array {
  const raw = bigIntToBytes(value);
  if (raw.length > length) throw new RangeError(`value does not fit in ${length} bytes`);
  const out = new Uint8Array(length);
  out.set(raw, length - raw.length);
  return out;
}

/** Java `BigInteger.toByteArray()` of a non-negative value: minimal two's complement, so a leading 0x00 when the top bit is set, and `[0]` for zero. */
export function bigIntToSignedBytes(value: bigint): Uint8Array {
  if (value < 0n) throw new RangeError(`negative value ${value}`);
  if (value === 0n) return new Uint8Array([0]);
  const raw = bigIntToBytes(value);
  return (raw[0] as number) & 0x80 ? concatBytes(new Uint8Array([0]), raw) : raw;
}

/** Big-endian unsigned 32-bit write. */
export function writeUint32BE(out: Uint8Array, offset: number, value: number): void {
  out[offset] = value >>> 24;
  out[offset + 1] = (value >>> 16) & 0xff;
  out[offset + 2] = (value >>> 8) & 0xff;
  out[offset + 3] = value & 0xff;
}

/** Little-endian unsigned 32-bit write. */
export function writeUint32LE(out: Uint8Array, offset: number, value: number): void {
  out[offset] = value & 0xff;
  out[offset + 1] = (value >>> 8) & 0xff;
  out[offset + 2] = (value >>> 16) & 0xff;
  out[offset + 3] = value >>> 24;
}

/** Little-endian unsigned 32-bit read. */
export function readUint32LE(bytes: Uint8Array, offset: number): number {
  return (
    ((bytes[offset] as number) |
      ((bytes[offset + 1] as number) << 8) |
      ((bytes[offset + 2] as number) << 16) |
      ((bytes[offset + 3] as number) << 24)) >>>
    0
  );
}

const HEX_DIGITS = Uint8Array.from("0123456789abcdef", (c) => c.charCodeAt(0));
// Hex digits are ASCII: decoding them as single-byte text gives a flat string (a cheap Map key).
const ASCII = new TextDecoder("latin1");
/** Above this length Node's native hex encoder is the faster one. */
const NATIVE_HEX_FROM = 48;

/** Lower-case hex without a prefix. */
export function bytesToHex(bytes: Uint8Array): string {
  if (bytes.length >= NATIVE_HEX_FROM)
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
  // Addresses and hashes: digits into a byte array, one decode (2x string concatenation of a table).
  const out = new Uint8Array(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    out[2 * i] = HEX_DIGITS[b >> 4] as number;
    out[2 * i + 1] = HEX_DIGITS[b & 15] as number;
  }
  return ASCII.decode(out);
}

/** Lower-case hex with a `0x` prefix. */
export function bytesToPrefixedHex(bytes: Uint8Array): string {
  return `0x${bytesToHex(bytes)}`;
}

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/**
 * Decodes even-length hex (an optional `0x` prefix is stripped) for internal, trusted input such
 * as test vectors and files. Throws a `RangeError` on bad characters; use the strict codecs in
 * `hex.ts` for anything that comes from a user or the network.
 */
export function hexToBytes(hex: string): Uint8Array {
  const h = hex.startsWith("0x") || hex.startsWith("0X") ? hex.slice(2) : hex;
  const out = hexToBytesOrNull(h);
  if (out === null) throw new RangeError(`invalid hex string of length ${h.length}`);
  return out;
}

function hexToBytesUnchecked(h: string): Uint8Array {
  return hexToBytesOrNull(h) as Uint8Array;
}

/** Decodes unprefixed even-length hex; null on odd length or a non-hex character. */
export function hexToBytesOrNull(h: string): Uint8Array | null {
  if (h.length % 2 !== 0) return null;
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = hexDigit(h.charCodeAt(2 * i));
    const lo = hexDigit(h.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return null;
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** UTF-8 bytes of a string. */
export function utf8ToBytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
