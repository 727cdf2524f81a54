/**
 * SHA-256 (FIPS 180-4) whose chaining state H0..H7 and processed byte count can be set, so that hashing can
 * resume from the midstate stored in a compressed coinbase (docs/protocol/merged-mining.md §3). It is the
 * only hand-written hash in xchain; everything else uses @noble/hashes through @xchain/utils.
 */
import {SHA256_BLOCK_SIZE} from "./constants.ts";

// biome-ignore format: the 64 round constants of FIPS 180-4 §4.2.2, eight per line
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The initial chaining state H0..H7 of SHA-256. */
export const SHA256_INITIAL_STATE: readonly number[] = Object.freeze([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

// Message schedule, reused by every call (JavaScript runs one compression at a time).
const W = new Uint32Array(64);

function rotr(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}

/** One compression of the 64-byte block at `offset` into `state`. */
function compress(state: Uint32Array, view: DataView, offset: number): void {
  for (let i = 0; i < 16; i++) W[i] = view.getUint32(offset + 4 * i);
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15]!;
    const w2 = W[i - 2]!;
    const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
    W[i] = W[i - 16]! + s0 + W[i - 7]! + s1;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  // Uint32Array stores reduce the sums modulo 2^32.
  state[0] = state[0]! + a;
  state[1] = state[1]! + b;
  state[2] = state[2]! + c;
  state[3] = state[3]! + d;
  state[4] = state[4]! + e;
  state[5] = state[5]! + f;
  state[6] = state[6]! + g;
  state[7] = state[7]! + h;
}

function compressBlocks(state: Uint32Array, data: Uint8Array, length: number): void {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let offset = 0; offset < length; offset += SHA256_BLOCK_SIZE) compress(state, view, offset);
}

/** The chaining state after hashing `data` from the initial state; `data` must be whole 64-byte blocks. */
export function sha256Midstate(data: Uint8Array): Uint32Array {
  if (data.length % SHA256_BLOCK_SIZE !== 0) {
    throw new RangeError(`midstate needs whole 64-byte blocks, got ${data.length} bytes`);
  }
  const state = Uint32Array.from(SHA256_INITIAL_STATE);
  compressBlocks(state, data, data.length);
  return state;
}

/**
 * Finishes a SHA-256 resumed from `state` after `processedBytes` bytes: hashes `tail`, pads with
 * the total length and returns the digest. The length field is `(processedBytes + tail.length) * 8`
 * taken modulo 2^64, exactly as BouncyCastle's `SHA256Digest` restored from an encoded state does
 * (a signed 64-bit byte count shifted left by three), so any stored byte count hashes as rskj hashes it.
 */
export function sha256Resume(state: ArrayLike<number>, processedBytes: bigint, tail: Uint8Array): Uint8Array {
  const h = Uint32Array.from(state);
  const whole = tail.length - (tail.length % SHA256_BLOCK_SIZE);
  compressBlocks(h, tail, whole);

  const rest = tail.length - whole;
  const last = new Uint8Array(rest < 56 ? SHA256_BLOCK_SIZE : 2 * SHA256_BLOCK_SIZE);
  last.set(tail.subarray(whole), 0);
  last[rest] = 0x80;
  const view = new DataView(last.buffer);
  view.setBigUint64(last.length - 8, BigInt.asUintN(64, (processedBytes + BigInt(tail.length)) * 8n));
  compressBlocks(h, last, last.length);

  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(4 * i, h[i]!);
  return out;
}
