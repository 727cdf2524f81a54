import {bytesToHex, concatBytes, hexToBytes, reverseBytes, sha256d} from "@xchain/utils";
import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {
  bitcoinMerkleRoot,
  buildFakeBitcoinBlock,
  buildPartialMerkleTree,
  MergedMiningErrorCode as Code,
  coinbaseMerkleBranch,
  compressCoinbase,
  GenesisMerkleProofValidator,
  grindNonce,
  merkleParent,
  nodesFormA64ByteTransaction,
  powTarget,
  Rskip92MerkleProofValidator,
  rskip92ProofFromMerkleBranch,
  rskip92ProofFromTxids,
  verifyMergedMiningProof,
} from "../src/index.ts";
import {expectCode} from "./fixtures.ts";

const txidsArb = fc.array(fc.uint8Array({minLength: 32, maxLength: 32}), {minLength: 1, maxLength: 40});
const display = (internal: Uint8Array) => bytesToHex(reverseBytes(internal));

describe("Bitcoin merkle root", () => {
  it("matches Bitcoin block 100,000", () => {
    const txids = [
      "8c14f0db3df150123e6f3dbbf30f8b955a8249b62ac1d1ff16284aefa3d06d87",
      "fff2525b8931402dd09222c50775608f75787bd2b87e56995a7bdd30f79702c4",
      "6359f0868171b1d194cbee1af2f16ea598ae8fad666d9b012c8ed2b79a236ec4",
      "e9a66845e05d5abc0ad04ec80f774a7e585c6e8db975962d069a522137b80c1d",
    ].map((h) => reverseBytes(hexToBytes(h)));
    expect(display(bitcoinMerkleRoot(txids))).toBe("f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766");
  });

  it("repeats the last node of an odd level, and is the txid for one transaction", () => {
    const [a, b, c] = [1, 2, 3].map((i) => new Uint8Array(32).fill(i)) as [Uint8Array, Uint8Array, Uint8Array];
    expect(bitcoinMerkleRoot([a, b, c])).toEqual(merkleParent(merkleParent(a, b), merkleParent(c, c)));
    expect(bitcoinMerkleRoot([a])).toEqual(a);
    expect(bitcoinMerkleRoot([])).toEqual(new Uint8Array(32));
    expect(coinbaseMerkleBranch([a, b, c])).toEqual([b, merkleParent(c, c)]);
  });
});

describe("RSKIP-92 proofs", () => {
  it("built from txids verify against the merkle root (random blocks)", () => {
    fc.assert(
      fc.property(txidsArb, (txids) => {
        const proof = rskip92ProofFromTxids(txids);
        expect(proof.length).toBe(32 * Math.ceil(Math.log2(txids.length)));
        new Rskip92MerkleProofValidator(proof, true).verify(bitcoinMerkleRoot(txids), txids[0]!);
      }),
    );
  });

  it("built from txids equal rskj's: the coinbase-only partial merkle tree's hashes after the first, display order", () => {
    fc.assert(
      fc.property(txidsArb, (txids) => {
        const pmt = buildPartialMerkleTree(txids, 0);
        expect(bytesToHex(rskip92ProofFromTxids(txids))).toBe(
          bytesToHex(concatBytes(...pmt.hashes.slice(1).map(reverseBytes))),
        );
      }),
    );
  });

  it("built from a pool's merkle branch reverse each hash", () => {
    const branch = [new Uint8Array(32).fill(1), Uint8Array.from({length: 32}, (_, i) => i)];
    expect(rskip92ProofFromMerkleBranch(branch)).toEqual(concatBytes(branch[0]!, reverseBytes(branch[1]!)));
    expect(rskip92ProofFromMerkleBranch([])).toEqual(new Uint8Array(0));
  });

  it("reject a wrong root and a wrong coinbase", () => {
    const txids = [1, 2, 3, 4, 5].map((i) => new Uint8Array(32).fill(i));
    const validator = new Rskip92MerkleProofValidator(rskip92ProofFromTxids(txids), true);
    expectCode(() => validator.verify(txids[0]!, txids[0]!), Code.MERKLE_ROOT_MISMATCH);
    expectCode(() => validator.verify(bitcoinMerkleRoot(txids), txids[1]!), Code.MERKLE_ROOT_MISMATCH);
  });
});

describe("the 64-byte transaction defence", () => {
  // Display-order right half that completes a one-input, one-output transaction when the left half's byte 4 is 1.
  function rightHalf(change: Partial<Record<number, number>> = {}): Uint8Array {
    const right = new Uint8Array(32);
    right[9] = 4; // input script length (the outpoint index at 5..8 is 0)
    right[18] = 1; // output count
    right[19] = 1; // value 1 satoshi
    right[27] = 0; // output script length
    for (const [i, v] of Object.entries(change)) right[Number(i)] = v as number;
    return right;
  }
  const leftDisplay = new Uint8Array(32);
  leftDisplay[4] = 1; // input count
  const check = (right: Uint8Array) => nodesFormA64ByteTransaction(reverseBytes(leftDisplay), reverseBytes(right));

  it("recognises a plausible transaction and each way of not being one", () => {
    expect(check(rightHalf())).toBe(true);
    // An empty input script moves the output fields 4 bytes earlier.
    expect(check(rightHalf({9: 0, 14: 1, 15: 1, 18: 0, 19: 0, 23: 4}))).toBe(true);
    expect(check(rightHalf({5: 0x40, 6: 0x42, 7: 0x0f}))).toBe(true); // index 1,000,000
    expect(check(rightHalf({5: 0x41, 6: 0x42, 7: 0x0f}))).toBe(false); // index 1,000,001
    expect(check(rightHalf({5: 0xff, 6: 0xff, 7: 0xff, 8: 0xff}))).toBe(true); // coinbase outpoint
    expect(check(rightHalf({9: 5}))).toBe(false);
    expect(check(rightHalf({9: 0x80}))).toBe(false);
    expect(check(rightHalf({18: 2}))).toBe(false);
    expect(check(rightHalf({19: 0}))).toBe(false);
    expect(check(rightHalf({26: 0x80}))).toBe(false); // negative value
    expect(check(rightHalf({27: 1}))).toBe(false); // script lengths add to 5
    expect(nodesFormA64ByteTransaction(new Uint8Array(32), reverseBytes(rightHalf()))).toBe(false);
  });

  it("rejects a proof whose first step forms one (MERKLE_ROOT_MISMATCH)", () => {
    // Grind the fake coinbase until its txid's display byte 4 is 1, so the right half can complete a transaction.
    const hashForMergedMining = new Uint8Array(32).fill(7);
    let coinbase: Uint8Array = new Uint8Array(0);
    for (let i = 0; ; i++) {
      coinbase = buildFakeBitcoinBlock({hashForMergedMining, time: 1, prefix: Uint8Array.of(i)}).coinbase;
      if (reverseBytes(sha256d(coinbase))[4] === 1) break;
    }
    const txid = sha256d(coinbase);
    const attempt = (right: Uint8Array) => {
      const root = merkleParent(txid, reverseBytes(right));
      const {header} = buildFakeBitcoinBlock({hashForMergedMining, time: 1});
      const bitcoinHeader = grindNonce({...header, merkleRoot: root}, powTarget(1n))!;
      return () =>
        verifyMergedMiningProof({
          bitcoinHeader,
          merkleProof: right,
          coinbase: compressCoinbase(coinbase),
          hashForMergedMining,
          difficulty: 1n,
          rskip92Active: true,
          rskip180Active: true,
        });
    };
    expectCode(attempt(rightHalf()), Code.MERKLE_ROOT_MISMATCH);
    expect(attempt(rightHalf({18: 2}))).not.toThrow();
  });
});

describe("GenesisMerkleProofValidator (pre-RSKIP-92 partial merkle trees)", () => {
  it("accepts the coinbase-only tree of any block", () => {
    fc.assert(
      fc.property(txidsArb, (txids) => {
        new GenesisMerkleProofValidator(buildPartialMerkleTree(txids, 0).serialized).verify(
          bitcoinMerkleRoot(txids),
          txids[0]!,
        );
      }),
    );
  });

  it("matches hand-built trees of one and two transactions", () => {
    const cb = new Uint8Array(32).fill(0xc0);
    const tx = new Uint8Array(32).fill(0x01);
    const one = concatBytes(hexToBytes("01000000" + "01"), cb, hexToBytes("01" + "01"));
    new GenesisMerkleProofValidator(one).verify(cb, cb);
    const two = concatBytes(hexToBytes("02000000" + "02"), cb, tx, hexToBytes("01" + "03"));
    new GenesisMerkleProofValidator(two).verify(merkleParent(cb, tx), cb);
  });

  it("rejects bytes that are not one serialized tree (MERKLE_PROOF_INVALID)", () => {
    const good = buildPartialMerkleTree(
      [1, 2, 3].map((i) => new Uint8Array(32).fill(i)),
      0,
    ).serialized;
    for (const bad of [new Uint8Array(0), good.subarray(0, good.length - 1), concatBytes(good, Uint8Array.of(0))]) {
      expectCode(() => new GenesisMerkleProofValidator(bad), Code.MERKLE_PROOF_INVALID);
    }
  });

  it("rejects trees that do not reach the root or do not match the coinbase (MERKLE_ROOT_MISMATCH)", () => {
    const txids = [1, 2, 3, 4, 5].map((i) => new Uint8Array(32).fill(i));
    const root = bitcoinMerkleRoot(txids);
    const other = buildPartialMerkleTree(txids, 1).serialized;
    expectCode(() => new GenesisMerkleProofValidator(other).verify(root, txids[0]!), Code.MERKLE_ROOT_MISMATCH);
    const good = buildPartialMerkleTree(txids, 0);
    expectCode(
      () => new GenesisMerkleProofValidator(good.serialized).verify(txids[0]!, txids[0]!),
      Code.MERKLE_ROOT_MISMATCH,
    );
    const zeroCount = concatBytes(new Uint8Array(4), good.serialized.subarray(4));
    expectCode(() => new GenesisMerkleProofValidator(zeroCount).verify(root, txids[0]!), Code.MERKLE_ROOT_MISMATCH);
    const extraFlagByte = buildPartialMerkleTree(txids, 0, 1).serialized;
    expectCode(() => new GenesisMerkleProofValidator(extraFlagByte).verify(root, txids[0]!), Code.MERKLE_ROOT_MISMATCH);
  });

  it("runs as check 1 and check 10 when RSKIP-92 is not active", () => {
    const hashForMergedMining = new Uint8Array(32).fill(9);
    const fake = buildFakeBitcoinBlock({hashForMergedMining, time: 1});
    const txids = [sha256d(fake.coinbase), new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)];
    const bitcoinHeader = grindNonce({...fake.header, merkleRoot: bitcoinMerkleRoot(txids)}, powTarget(1n))!;
    const input = {
      bitcoinHeader,
      merkleProof: buildPartialMerkleTree(txids, 0).serialized,
      coinbase: compressCoinbase(fake.coinbase),
      hashForMergedMining,
      difficulty: 1n,
      rskip92Active: false,
      rskip180Active: false,
    };
    expect(() => verifyMergedMiningProof(input)).not.toThrow();
    expectCode(
      () => verifyMergedMiningProof({...input, merkleProof: rskip92ProofFromTxids(txids)}),
      Code.MERKLE_PROOF_INVALID,
    );
    expectCode(() => verifyMergedMiningProof({...input, rskip92Active: true}), Code.MERKLE_PROOF_INVALID);
  });
});
