import {BlockHeader} from "@xchain/primitives";
import {readJsonVector} from "@xchain/test-utils";
import {bytesToHex, concatBytes, hexToBytes, reverseBytes, sha256d, utf8ToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  bitcoinTxid,
  coinbaseTxidFromCompressed,
  compressCoinbase,
  findMergedMiningHash,
  MergedMiningErrorCode,
  parseBitcoinTransaction,
  splitCompressedCoinbase,
  stripWitness,
} from "../src/index.ts";
import {craftCompressed, expectCode, samples, testnetBlocks, testnetRules} from "./fixtures.ts";

interface CompressionVector {
  rawSegwit: string;
  legacySerialization: string;
  txid: string;
  compressed: string;
  midstateByteCount: number;
  tagPositionInTail: number;
  embeddedHashForMergedMining: string;
}

const vector = readJsonVector<CompressionVector>("coinbase-compression-vector.json");
const display = (internal: Uint8Array) => bytesToHex(reverseBytes(internal));

describe("the real AntPool coinbase (coinbase-compression-vector.json)", () => {
  const legacy = hexToBytes(vector.legacySerialization);

  it("compresses the legacy serialization to exactly the stored form", () => {
    expect(bytesToHex(compressCoinbase(legacy))).toBe(vector.compressed);
  });

  it("recovers the txid from the compressed form and from the legacy form", () => {
    expect(display(coinbaseTxidFromCompressed(hexToBytes(vector.compressed)))).toBe(vector.txid);
    expect(display(sha256d(legacy))).toBe(vector.txid);
  });

  it("splits into the stored byte count and tail", () => {
    const parts = splitCompressedCoinbase(hexToBytes(vector.compressed));
    expect(parts.byteCount).toBe(BigInt(vector.midstateByteCount));
    expect(bytesToHex(parts.tail.subarray(vector.tagPositionInTail, vector.tagPositionInTail + 9))).toBe(
      bytesToHex(utf8ToBytes("RSKBLOCK:")),
    );
  });

  it("strips the witness from the segwit serialization to get the legacy one", () => {
    const raw = hexToBytes(vector.rawSegwit);
    expect(bytesToHex(stripWitness(raw))).toBe(vector.legacySerialization);
    const tx = parseBitcoinTransaction(raw);
    expect(tx.hasWitness).toBe(true);
    expect(tx.inputs[0]?.witness).toHaveLength(1);
    expect(display(bitcoinTxid(tx))).toBe(vector.txid);
    expect(stripWitness(legacy)).toEqual(legacy);
  });

  it("finds the hashForMergedMining after the last tag, in either serialization", () => {
    expect(bytesToHex(findMergedMiningHash(hexToBytes(vector.rawSegwit))!)).toBe(vector.embeddedHashForMergedMining);
    expect(bytesToHex(findMergedMiningHash(legacy)!)).toBe(vector.embeddedHashForMergedMining);
    expect(findMergedMiningHash(new Uint8Array(100))).toBeUndefined();
    expect(findMergedMiningHash(concatBytes(utf8ToBytes("RSKBLOCK:"), new Uint8Array(31)))).toBeUndefined();
  });
});

describe("coinbase txids of real headers", () => {
  for (const s of samples) {
    it(`mainnet ${s.number}`, () => {
      const compressed = hexToBytes(s.coinbaseCompressed);
      expect(display(coinbaseTxidFromCompressed(compressed))).toBe(s.coinbaseTxid_display);
      const parts = splitCompressedCoinbase(compressed);
      expect(parts.byteCount).toBe(BigInt(s.midstateByteCount));
    });
  }
  for (const b of testnetBlocks.filter((t) => t.coinbaseTxid_display !== undefined)) {
    it(`testnet ${b.number}`, () => {
      const header = BlockHeader.decode(hexToBytes(b.headerRlpFull), testnetRules);
      expect(display(coinbaseTxidFromCompressed(header.mergedMining!.coinbase))).toBe(b.coinbaseTxid_display);
    });
  }
});

describe("compressCoinbase edge cases", () => {
  it("hashes nothing ahead when there is no tag (rskj: -1 / 64 = 0)", () => {
    const tx = Uint8Array.from({length: 150}, (_, i) => i);
    const compressed = compressCoinbase(tx);
    expect(bytesToHex(compressed)).toBe(bytesToHex(craftCompressed(tx)));
    expect(bytesToHex(coinbaseTxidFromCompressed(compressed))).toBe(bytesToHex(sha256d(tx)));
  });

  it("cuts at the block holding the last tag", () => {
    const tag = utf8ToBytes("RSKBLOCK:");
    const tx = concatBytes(new Uint8Array(10), tag, new Uint8Array(150), tag, new Uint8Array(40));
    const parts = splitCompressedCoinbase(compressCoinbase(tx));
    expect(parts.byteCount).toBe(128n);
    expect(parts.tail).toHaveLength(tx.length - 128);
    expect(bytesToHex(coinbaseTxidFromCompressed(compressCoinbase(tx)))).toBe(bytesToHex(sha256d(tx)));
  });

  it("rejects a compressed coinbase shorter than its 40-byte midstate", () => {
    expectCode(() => coinbaseTxidFromCompressed(new Uint8Array(39)), MergedMiningErrorCode.COINBASE_MIDSTATE_INVALID);
  });

  it("hashes a partial-block byte count as BouncyCastle does: the tail from a fresh block, the count in the length", () => {
    // With the initial state and a count of 0 the result is the plain double SHA-256 of the tail;
    // a count of 65 changes only the length field, so the txid must differ from that.
    const tail = new Uint8Array(80).fill(7);
    expect(bytesToHex(coinbaseTxidFromCompressed(craftCompressed(tail, 0n)))).toBe(bytesToHex(sha256d(tail)));
    expect(bytesToHex(coinbaseTxidFromCompressed(craftCompressed(tail, 65n)))).not.toBe(bytesToHex(sha256d(tail)));
  });
});
