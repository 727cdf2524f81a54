import {bytesToHex, hexToBytes, sha256d} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  BitcoinDecodeError,
  BitcoinDecodeErrorCode,
  bitcoinMerkleRoot,
  buildPartialMerkleTree,
  decodeCompactBits,
  encodeCompactBits,
  extractPartialMerkleTree,
  OP_RETURN,
  p2pkhOutputScript,
  p2shOutputScript,
  parsePartialMerkleTree,
  parseScriptChunks,
  workOfTarget,
} from "../src/index.ts";

const txids = (n: number) => Array.from({length: n}, (_, i) => sha256d(Uint8Array.of(i)));

describe("compact targets", () => {
  it("decodes bitcoinj's values: mainnet's and regtest's limits, the sign bit, small exponents", () => {
    expect(decodeCompactBits(0x1d00ffff)).toBe(0xffffn << 208n);
    expect(decodeCompactBits(0x207fffff)).toBe(0x7fffffn << 232n);
    expect(decodeCompactBits(0x04923456)).toBeLessThan(0n);
    expect(decodeCompactBits(0x01123456)).toBe(0x12n);
    expect(decodeCompactBits(0x02123456)).toBe(0x1234n);
    expect(decodeCompactBits(0x00123456)).toBe(0n);
  });

  it("encodes as bitcoinj does, rounding to three bytes and avoiding the sign bit", () => {
    expect(encodeCompactBits(0xffffn << 208n)).toBe(0x1d00ffff);
    expect(encodeCompactBits(0x7fffffn << 232n)).toBe(0x207fffff);
    expect(encodeCompactBits(0x80n)).toBe(0x02008000);
    expect(encodeCompactBits(0x12345678n)).toBe(0x04123456);
    expect(encodeCompactBits(0n)).toBe(0x01000000);
    for (const bits of [0x1d00ffff, 0x1b0404cb, 0x207fffff, 0x1a05db8b]) {
      expect(encodeCompactBits(decodeCompactBits(bits))).toBe(bits);
    }
  });

  it("gives a header's work as 2^256 / (target + 1)", () => {
    expect(workOfTarget(decodeCompactBits(0x1d00ffff))).toBe(0x100010001n);
    expect(workOfTarget(decodeCompactBits(0x207fffff))).toBe(2n);
  });
});

describe("script chunks", () => {
  it("reads pushes of every form and bare opcodes", () => {
    const data = new Uint8Array(300).fill(7);
    const script = Uint8Array.of(0x00, 0x02, 1, 2, 0x4c, 1, 9, 0x4d, 0x2c, 0x01, ...data, OP_RETURN);
    const chunks = parseScriptChunks(script);
    expect(chunks.map((c) => c.opcode)).toEqual([0x00, 0x02, 0x4c, 0x4d, OP_RETURN]);
    expect(chunks.map((c) => c.data?.length)).toEqual([0, 2, 1, 300, undefined]);
  });

  it("refuses a push that runs past the end", () => {
    for (const script of [
      Uint8Array.of(0x05, 1, 2),
      Uint8Array.of(0x4c),
      Uint8Array.of(0x4d, 1),
      Uint8Array.of(0x4e, 1),
    ]) {
      expect(() => parseScriptChunks(script)).toThrow(BitcoinDecodeError);
    }
  });

  it("builds P2SH and P2PKH output scripts", () => {
    const hash = new Uint8Array(20).fill(0xab);
    expect(bytesToHex(p2shOutputScript(hash))).toBe(`a914${"ab".repeat(20)}87`);
    expect(bytesToHex(p2pkhOutputScript(hash))).toBe(`76a914${"ab".repeat(20)}88ac`);
  });
});

describe("partial merkle trees", () => {
  it("round-trips every leaf of trees of 1 to 9 transactions: the root and the one matched txid", () => {
    for (let n = 1; n <= 9; n++) {
      const leaves = txids(n);
      for (let i = 0; i < n; i++) {
        const {root, matched} = extractPartialMerkleTree(
          parsePartialMerkleTree(buildPartialMerkleTree(leaves, i).serialized),
        );
        expect(bytesToHex(root)).toBe(bytesToHex(bitcoinMerkleRoot(leaves)));
        expect(matched.map(bytesToHex)).toEqual([bytesToHex(leaves[i] as Uint8Array)]);
      }
    }
  });

  it("a one-transaction tree is the txid itself", () => {
    const [txid] = txids(1) as [Uint8Array];
    const {serialized} = buildPartialMerkleTree([txid], 0);
    expect(bytesToHex(serialized)).toBe(`0100000001${bytesToHex(txid)}0101`);
  });

  it("refuses bytes after the tree, unused flag bytes and a zero count", () => {
    const good = buildPartialMerkleTree(txids(3), 1).serialized;
    expect(() => parsePartialMerkleTree(Uint8Array.of(...good, 0))).toThrow(BitcoinDecodeError);
    const extra = parsePartialMerkleTree(buildPartialMerkleTree(txids(3), 1, 1).serialized);
    expect(() => extractPartialMerkleTree(extra)).toThrow(
      expect.objectContaining({
        type: {code: BitcoinDecodeErrorCode.INVALID_PARTIAL_MERKLE_TREE, reason: "invalid-partial-merkle-tree"},
      }),
    );
    const zero = hexToBytes(`0000000001${"11".repeat(32)}0101`);
    expect(() => extractPartialMerkleTree(parsePartialMerkleTree(zero))).toThrow(BitcoinDecodeError);
  });
});
