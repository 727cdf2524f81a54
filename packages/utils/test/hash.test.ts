import {keccak_256} from "@noble/hashes/sha3.js";
import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {bytesToHex, keccak256, keccakBackend, utf8ToBytes} from "../src/index.ts";

describe("keccak256", () => {
  it("runs on WebAssembly here", () => {
    expect(keccakBackend).toBe("wasm");
  });

  it("hashes known values", () => {
    expect(bytesToHex(keccak256(new Uint8Array(0)))).toBe(
      "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
    );
    expect(bytesToHex(keccak256(utf8ToBytes("cow")))).toBe(
      "c85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4",
    );
  });

  it("equals @noble/hashes on random inputs, including around the 136-byte rate", () => {
    fc.assert(
      fc.property(fc.uint8Array({maxLength: 700}), (data) => {
        expect(bytesToHex(keccak256(data))).toBe(bytesToHex(keccak_256(data)));
      }),
      {numRuns: 2000},
    );
    for (const n of [135, 136, 137, 271, 272, 273]) {
      const data = new Uint8Array(n).fill(n);
      expect(bytesToHex(keccak256(data))).toBe(bytesToHex(keccak_256(data)));
    }
  });

  it("returns a fresh array each call (callers may keep or mutate it)", () => {
    const a = keccak256(Uint8Array.of(1));
    const b = keccak256(Uint8Array.of(2));
    expect(bytesToHex(a)).not.toBe(bytesToHex(b));
    a[0] = 0;
    expect(bytesToHex(keccak256(Uint8Array.of(1)))).toBe(bytesToHex(keccak_256(Uint8Array.of(1))));
  });
});
