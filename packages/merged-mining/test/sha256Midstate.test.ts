// @xchain/utils' sha256 is @noble/hashes' sha256: the reference the hand-written one is checked against.
import {bytesToHex, sha256, utf8ToBytes} from "@xchain/utils";
import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {SHA256_INITIAL_STATE, sha256Midstate, sha256Resume} from "../src/index.ts";

/** SHA-256 of `data`, compressing its first `blocks` 64-byte blocks and resuming from that midstate. */
function viaMidstate(data: Uint8Array, blocks: number): Uint8Array {
  const cut = blocks * 64;
  return sha256Resume(sha256Midstate(data.subarray(0, cut)), BigInt(cut), data.subarray(cut));
}

describe("sha256Midstate / sha256Resume", () => {
  it("hashes the FIPS 180-4 examples from the initial state", () => {
    expect(bytesToHex(sha256Resume(SHA256_INITIAL_STATE, 0n, utf8ToBytes("abc")))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    expect(bytesToHex(sha256Resume(SHA256_INITIAL_STATE, 0n, new Uint8Array(0)))).toBe(
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
  });

  it("matches @noble/hashes around block and padding boundaries, for every cut", () => {
    const lengths = [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 121, 127, 128, 129, 183, 184, 191, 192, 1000];
    for (const length of lengths) {
      const data = Uint8Array.from({length}, (_, i) => (i * 31 + 7) & 0xff);
      const expected = bytesToHex(sha256(data));
      for (let blocks = 0; blocks * 64 <= length; blocks++) {
        expect(bytesToHex(viaMidstate(data, blocks)), `length ${length}, ${blocks} blocks`).toBe(expected);
      }
    }
  });

  it("matches @noble/hashes on random inputs and cuts", () => {
    fc.assert(
      fc.property(fc.uint8Array({maxLength: 700}), fc.nat(), (data, seed) => {
        const blocks = seed % (Math.floor(data.length / 64) + 1);
        expect(bytesToHex(viaMidstate(data, blocks))).toBe(bytesToHex(sha256(data)));
      }),
      {numRuns: 500},
    );
  });

  it("is not disturbed by inputs that are views into larger buffers", () => {
    const buffer = Uint8Array.from({length: 300}, (_, i) => i & 0xff);
    const data = buffer.subarray(3, 250);
    expect(bytesToHex(viaMidstate(data, 2))).toBe(bytesToHex(sha256(data)));
  });

  it("rejects a midstate over a partial block", () => {
    expect(() => sha256Midstate(new Uint8Array(65))).toThrow(RangeError);
  });

  it("wraps the length field modulo 2^64 like a Java long shifted by three", () => {
    // 2^61 extra bytes are 2^64 extra bits: the same padding, so the same digest.
    const data = Uint8Array.from({length: 100}, (_, i) => i);
    const midstate = sha256Midstate(data.subarray(0, 64));
    const alias = sha256Resume(midstate, 64n + (1n << 61n), data.subarray(64));
    expect(bytesToHex(alias)).toBe(bytesToHex(sha256(data)));
  });
});
