/**
 * Bitcoin's compact target encoding ("nBits") and the work of a header (bitcoinj-thin's
 * `Utils.decodeCompactBits`/`encodeCompactBits` and `BtcBlock.getWork`).
 */

const TWO_POW_256 = 1n << 256n;
const SIGN_BIT = 0x00800000;

/**
 * The target an nBits value encodes: mantissa (low 23 bits) × 256^(exponent − 3). A set sign bit
 * gives a negative number, as in bitcoinj, so that a caller's `target > 0` check rejects it.
 */
export function decodeCompactBits(bits: number): bigint {
  const size = bits >>> 24;
  const mantissa = BigInt(bits & 0x007fffff);
  const value = size <= 3 ? mantissa >> BigInt(8 * (3 - size)) : mantissa << BigInt(8 * (size - 3));
  return size > 0 && (bits & SIGN_BIT) !== 0 ? -value : value;
}

/** The compact encoding of a non-negative target, rounded down to 3 bytes of precision. */
export function encodeCompactBits(target: bigint): number {
  if (target < 0n) throw new RangeError("a target is never negative");
  // bitcoinj takes the length of Java's two's-complement toByteArray: bitLength / 8 + 1 bytes.
  let size = (target === 0n ? 0 : target.toString(2).length >> 3) + 1;
  let mantissa = Number(size <= 3 ? target << BigInt(8 * (3 - size)) : target >> BigInt(8 * (size - 3)));
  if ((mantissa & SIGN_BIT) !== 0) {
    mantissa >>>= 8;
    size++;
  }
  return ((size << 24) | mantissa) >>> 0;
}

/** The expected number of hashes to find a header at `target`: 2^256 / (target + 1). */
export function workOfTarget(target: bigint): bigint {
  return TWO_POW_256 / (target + 1n);
}
