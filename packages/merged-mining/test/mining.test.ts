import {readJsonVector} from "@xchain/test-utils";
import {bytesToHex, concatBytes, hexToBytes, sha256d, utf8ToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  bitcoinMerkleRoot,
  bitcoinPowValue,
  bitcoinTxid,
  buildFakeBitcoinBlock,
  FAKE_BLOCK_VERSION,
  findMergedMiningHash,
  grindNonce,
  mergedMiningFieldsFromBlock,
  parseBitcoinBlock,
  parseBitcoinHeader,
  powTarget,
  REGTEST_MAX_TARGET_BITS,
  rskip92ProofFromTxids,
  serializeBitcoinBlock,
  serializeBitcoinHeader,
  verifyMergedMiningProof,
} from "../src/index.ts";

const hashForMergedMining = Uint8Array.from({length: 32}, (_, i) => 0xa0 + i);
const regtestDifficulty = 3n; // target 0x5555…55, as mnr_getWork reports on regtest (docs/protocol/mining-rpc.md §2)

describe("the regtest fake Bitcoin block (docs/protocol/mining-rpc.md §6)", () => {
  const fake = buildFakeBitcoinBlock({hashForMergedMining, time: 1_700_000_000});

  it("has one transaction committing to hashForMergedMining", () => {
    const block = parseBitcoinBlock(fake.block);
    expect(block.transactions).toHaveLength(1);
    const [coinbase] = block.transactions;
    expect(coinbase!.inputs).toHaveLength(1);
    expect(coinbase!.inputs[0]!.script).toHaveLength(0);
    expect(coinbase!.inputs[0]!.prevIndex).toBe(0xffffffff);
    expect(coinbase!.outputs.map((o) => o.value)).toEqual([5_000_000_000n, 0n]);
    expect(coinbase!.outputs[1]!.script).toEqual(concatBytes(utf8ToBytes("RSKBLOCK:"), hashForMergedMining));
    expect(findMergedMiningHash(fake.coinbase)).toEqual(hashForMergedMining);
  });

  it("has rskj's header fields and the coinbase txid as merkle root", () => {
    expect(fake.header).toMatchObject({
      version: FAKE_BLOCK_VERSION,
      time: 1_700_000_000,
      bits: REGTEST_MAX_TARGET_BITS,
      nonce: 0,
    });
    expect(fake.header.prevBlockHash).toEqual(new Uint8Array(32));
    expect(fake.header.merkleRoot).toEqual(sha256d(fake.coinbase));
    expect(bitcoinMerkleRoot([sha256d(fake.coinbase)])).toEqual(fake.header.merkleRoot);
  });

  it("puts a prefix before the tag", () => {
    const prefix = new Uint8Array(700).fill(0x5a);
    const withPrefix = buildFakeBitcoinBlock({hashForMergedMining, time: 1, prefix});
    const script = parseBitcoinBlock(withPrefix.block).transactions[0]!.outputs[1]!.script;
    expect(script.subarray(0, 700)).toEqual(prefix);
    expect(findMergedMiningHash(withPrefix.coinbase)).toEqual(hashForMergedMining);
  });

  it("rejects a hashForMergedMining that is not 32 bytes", () => {
    expect(() => buildFakeBitcoinBlock({hashForMergedMining: new Uint8Array(31), time: 1})).toThrow(RangeError);
  });

  it("is mined by grinding the nonce and then passes every check", () => {
    for (const prefix of [new Uint8Array(0), new Uint8Array(63), new Uint8Array(999).fill(1)]) {
      const block = buildFakeBitcoinBlock({hashForMergedMining, time: 1_700_000_000, prefix});
      const target = powTarget(regtestDifficulty);
      const sealed = grindNonce(block.header, target)!;
      expect(bitcoinPowValue(sealed)).toBeLessThanOrEqual(target);
      const fields = mergedMiningFieldsFromBlock(serializeBitcoinBlock(sealed, [block.coinbase]));
      expect(fields.merkleProof).toHaveLength(0);
      const input = {
        ...fields,
        hashForMergedMining,
        difficulty: regtestDifficulty,
        rskip92Active: true,
        rskip180Active: true,
      };
      expect(() => verifyMergedMiningProof(input)).not.toThrow();
    }
  });
});

describe("grindNonce", () => {
  it("returns undefined when no nonce in range meets the target", () => {
    const {header} = buildFakeBitcoinBlock({hashForMergedMining, time: 1});
    expect(grindNonce(header, 0n, 50)).toBeUndefined();
  });

  it("starts at the header's nonce", () => {
    const {header} = buildFakeBitcoinBlock({hashForMergedMining, time: 1});
    const target = powTarget(1000n);
    const first = parseBitcoinHeader(grindNonce(header, target)!).nonce;
    expect(parseBitcoinHeader(grindNonce({...header, nonce: first}, target)!).nonce).toBe(first);
    expect(parseBitcoinHeader(grindNonce({...header, nonce: first + 1}, target)!).nonce).toBeGreaterThan(first);
  });
});

describe("merged-mining fields of a submitted block (docs/protocol/mining-rpc.md §3)", () => {
  const vector = readJsonVector<{rawSegwit: string; compressed: string}>("coinbase-compression-vector.json");
  const others = [1, 2, 3, 4].map((time) => buildFakeBitcoinBlock({hashForMergedMining, time}).coinbase);

  it("strip a segwit coinbase's witness, compress it, and prove it from all txids", () => {
    const coinbase = hexToBytes(vector.rawSegwit);
    const header = serializeBitcoinHeader(buildFakeBitcoinBlock({hashForMergedMining, time: 1}).header);
    const block = parseBitcoinBlock(serializeBitcoinBlock(header, [coinbase, ...others]));
    const fields = mergedMiningFieldsFromBlock(block);
    expect(bytesToHex(fields.coinbase)).toBe(vector.compressed);
    expect(fields.bitcoinHeader).toEqual(header);
    expect(fields.merkleProof).toEqual(rskip92ProofFromTxids(block.transactions.map(bitcoinTxid)));
    expect(fields.merkleProof).toHaveLength(3 * 32);
  });

  it("need at least one transaction", () => {
    const header = serializeBitcoinHeader(buildFakeBitcoinBlock({hashForMergedMining, time: 1}).header);
    expect(() => mergedMiningFieldsFromBlock(serializeBitcoinBlock(header, []))).toThrow(RangeError);
  });
});
