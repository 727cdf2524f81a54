import {keccak_256} from "@noble/hashes/sha3.js";
import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {bytesToHex, hash160, hexToBytes, keccak256, keccakBackend, publicKeyForms, utf8ToBytes} from "../src/index.ts";

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

// The generator point G, the public key of private key 1, compressed and uncompressed.
const G_COMPRESSED = "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";
const G_UNCOMPRESSED =
  "0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8";

describe("hash160", () => {
  it("is Bitcoin's HASH160 (the address hashes of private key 1's public keys)", () => {
    expect(bytesToHex(hash160(hexToBytes(G_COMPRESSED)))).toBe("751e76e8199196d454941c45d1b3a323f1433bd6");
    expect(bytesToHex(hash160(hexToBytes(G_UNCOMPRESSED)))).toBe("91b24bf9f5288532960ac687abb035127b1d28a5");
  });
});

describe("publicKeyForms", () => {
  it("gives both forms of a compressed or uncompressed key", () => {
    for (const key of [G_COMPRESSED, G_UNCOMPRESSED, G_UNCOMPRESSED.slice(2)]) {
      const {compressed, uncompressed} = publicKeyForms(hexToBytes(key));
      expect(bytesToHex(compressed)).toBe(G_COMPRESSED);
      expect(bytesToHex(uncompressed)).toBe(G_UNCOMPRESSED.slice(2));
    }
  });

  it("throws on bytes that are not a point", () => {
    expect(() => publicKeyForms(hexToBytes(`02${"00".repeat(32)}`))).toThrow();
    expect(() => publicKeyForms(new Uint8Array(20))).toThrow();
  });
});
