import {concatBytes, utf8ToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  MergedMiningErrorCode as Code,
  grindNonce,
  type MergedMiningProofInput,
  parseBitcoinHeader,
  powTarget,
  verifyHeaderMergedMining,
  verifyMergedMiningProof,
} from "../src/index.ts";
import {
  craftCompressed,
  expectCode,
  flipByte,
  loadMainnetHeaders,
  mainnetInput,
  mainnetMergedMiningRules,
  mainnetRules,
} from "./fixtures.ts";

const TAG = utf8ToBytes("RSKBLOCK:");
const headers = loadMainnetHeaders();
// A few real headers spread over the file (all post-RSKIP-180, with fork-detection data).
const picked = [headers[0]!, headers[500]!, headers[1059]!];

function verify(base: MergedMiningProofInput, change: Partial<MergedMiningProofInput>): () => void {
  return () => verifyMergedMiningProof({...base, ...change});
}

/** The position of `RSKBLOCK:` in the compressed coinbase of a real header. */
function tagOffset(input: MergedMiningProofInput): number {
  const tail = input.coinbase.subarray(40);
  for (let i = tail.length - TAG.length; i >= 0; i--) {
    if (TAG.every((b, j) => tail[i + j] === b)) return 40 + i;
  }
  throw new Error("no tag");
}

describe.each(picked.map((h) => [h.number, h] as const))("one changed byte in real header %i", (_, header) => {
  const input = mainnetInput(header);

  it("passes unchanged", () => {
    expect(verify(input, {})).not.toThrow();
  });

  it("Bitcoin header nonce → POW_ABOVE_TARGET", () => {
    expectCode(verify(input, {bitcoinHeader: flipByte(input.bitcoinHeader, 77)}), Code.POW_ABOVE_TARGET);
  });

  it("Bitcoin header version or time → POW_ABOVE_TARGET", () => {
    expectCode(verify(input, {bitcoinHeader: flipByte(input.bitcoinHeader, 0)}), Code.POW_ABOVE_TARGET);
    expectCode(verify(input, {bitcoinHeader: flipByte(input.bitcoinHeader, 70)}), Code.POW_ABOVE_TARGET);
  });

  it("Bitcoin merkle root, nonce re-ground for a tiny difficulty → MERKLE_ROOT_MISMATCH", () => {
    const mutated = parseBitcoinHeader(flipByte(input.bitcoinHeader, 40));
    const bitcoinHeader = grindNonce(mutated, powTarget(1n))!;
    expectCode(verify(input, {bitcoinHeader, difficulty: 1n}), Code.MERKLE_ROOT_MISMATCH);
  });

  it("merkle proof byte → MERKLE_ROOT_MISMATCH", () => {
    expectCode(verify(input, {merkleProof: flipByte(input.merkleProof, 3)}), Code.MERKLE_ROOT_MISMATCH);
    const last = input.merkleProof.length - 1;
    expectCode(verify(input, {merkleProof: flipByte(input.merkleProof, last)}), Code.MERKLE_ROOT_MISMATCH);
  });

  it("merkle proof truncated to a non-multiple of 32 → MERKLE_PROOF_INVALID", () => {
    expectCode(verify(input, {merkleProof: input.merkleProof.subarray(1)}), Code.MERKLE_PROOF_INVALID);
  });

  it("merkle proof missing its last hash → MERKLE_ROOT_MISMATCH", () => {
    const merkleProof = input.merkleProof.subarray(0, input.merkleProof.length - 32);
    expectCode(verify(input, {merkleProof}), Code.MERKLE_ROOT_MISMATCH);
  });

  it("merkle proof over 960 bytes → MERKLE_PROOF_INVALID with RSKIP-180 only", () => {
    const merkleProof = concatBytes(input.merkleProof, new Uint8Array(992 - input.merkleProof.length));
    expectCode(verify(input, {merkleProof}), Code.MERKLE_PROOF_INVALID);
    expectCode(verify(input, {merkleProof, rskip180Active: false}), Code.MERKLE_ROOT_MISMATCH);
  });

  it("midstate byte → MERKLE_ROOT_MISMATCH", () => {
    expectCode(verify(input, {coinbase: flipByte(input.coinbase, 8)}), Code.MERKLE_ROOT_MISMATCH);
    expectCode(verify(input, {coinbase: flipByte(input.coinbase, 39)}), Code.MERKLE_ROOT_MISMATCH);
  });

  it("byte count → MERKLE_ROOT_MISMATCH, whole blocks or not (rskj hashes either)", () => {
    expectCode(verify(input, {coinbase: flipByte(input.coinbase, 7)}), Code.MERKLE_ROOT_MISMATCH);
    expectCode(verify(input, {coinbase: flipByte(input.coinbase, 6)}), Code.MERKLE_ROOT_MISMATCH);
  });

  it("the tag → TAG_NOT_FOUND", () => {
    expectCode(verify(input, {coinbase: flipByte(input.coinbase, tagOffset(input))}), Code.TAG_NOT_FOUND);
  });

  it("the hash after the tag → TAG_NOT_FOUND", () => {
    for (const k of [0, 19, 20, 31]) {
      const coinbase = flipByte(input.coinbase, tagOffset(input) + TAG.length + k);
      expectCode(verify(input, {coinbase}), Code.TAG_NOT_FOUND);
    }
  });

  it("a byte after the hash → MERKLE_ROOT_MISMATCH", () => {
    expectCode(
      verify(input, {coinbase: flipByte(input.coinbase, input.coinbase.length - 1)}),
      Code.MERKLE_ROOT_MISMATCH,
    );
  });

  it("through the header: prefix after the tag → FORK_DETECTION_DATA_NOT_FOUND, FDD byte → MERKLE_ROOT_MISMATCH", () => {
    const rules = mainnetMergedMiningRules(header.number);
    const withCoinbase = (coinbase: Uint8Array) =>
      header.withMergedMining({...header.mergedMining!, coinbase}, mainnetRules);
    const prefixByte = tagOffset(input) + TAG.length + 3;
    const fddByte = tagOffset(input) + TAG.length + 25;
    expectCode(
      () => verifyHeaderMergedMining(withCoinbase(flipByte(input.coinbase, prefixByte)), rules),
      Code.FORK_DETECTION_DATA_NOT_FOUND,
    );
    expectCode(
      () => verifyHeaderMergedMining(withCoinbase(flipByte(input.coinbase, fddByte)), rules),
      Code.MERKLE_ROOT_MISMATCH,
    );
    // The fork-detection data is only needed from check 5 on: an earlier failure wins.
    const badPow = header.withMergedMining(
      {
        ...header.mergedMining!,
        bitcoinHeader: flipByte(input.bitcoinHeader, 77),
        coinbase: flipByte(input.coinbase, prefixByte),
      },
      mainnetRules,
    );
    expectCode(() => verifyHeaderMergedMining(badPow, rules), Code.POW_ABOVE_TARGET);
  });
});

describe("crafted proofs reaching each check (real Bitcoin header, difficulty 1)", () => {
  const real = mainnetInput(headers[0]!);
  const hash = real.hashForMergedMining;
  const base: MergedMiningProofInput = {...real, difficulty: 1n};
  const tagged = (before: number, after: number) =>
    concatBytes(new Uint8Array(before).fill(0x11), TAG, hash, new Uint8Array(after).fill(0x22));

  it("BTC_HEADER_INVALID for 0, 79 and 81 bytes", () => {
    expectCode(verify(base, {bitcoinHeader: new Uint8Array(0)}), Code.BTC_HEADER_INVALID);
    expectCode(verify(base, {bitcoinHeader: real.bitcoinHeader.subarray(0, 79)}), Code.BTC_HEADER_INVALID);
    expectCode(
      verify(base, {bitcoinHeader: concatBytes(real.bitcoinHeader, Uint8Array.of(0))}),
      Code.BTC_HEADER_INVALID,
    );
  });

  it("COINBASE_MISSING for an empty coinbase", () => {
    expectCode(verify(base, {coinbase: new Uint8Array(0)}), Code.COINBASE_MISSING);
  });

  it("check 1 comes before check 2", () => {
    expectCode(verify(base, {coinbase: new Uint8Array(0), merkleProof: new Uint8Array(5)}), Code.MERKLE_PROOF_INVALID);
  });

  it("COINBASE_MIDSTATE_INVALID for 39 bytes, not for a byte count of 65", () => {
    expectCode(verify(base, {coinbase: new Uint8Array(39)}), Code.COINBASE_MIDSTATE_INVALID);
    expectCode(verify(base, {coinbase: craftCompressed(tagged(0, 30), 65n)}), Code.MERKLE_ROOT_MISMATCH);
  });

  it("TAG_POSITION_TOO_LATE at tail position 64, not at 63", () => {
    expectCode(verify(base, {coinbase: craftCompressed(tagged(64, 4))}), Code.TAG_POSITION_TOO_LATE);
    expectCode(verify(base, {coinbase: craftCompressed(tagged(63, 4))}), Code.MERKLE_ROOT_MISMATCH);
  });

  it("TAG_NOT_LAST when another RSKBLOCK: follows", () => {
    const coinbase = craftCompressed(concatBytes(tagged(0, 4), TAG, new Uint8Array(32)));
    expectCode(verify(base, {coinbase}), Code.TAG_NOT_LAST);
  });

  it("TOO_MANY_BYTES_AFTER_TAG at 129 bytes after the hash, not at 128", () => {
    expectCode(verify(base, {coinbase: craftCompressed(tagged(0, 129))}), Code.TOO_MANY_BYTES_AFTER_TAG);
    expectCode(verify(base, {coinbase: craftCompressed(tagged(0, 128))}), Code.MERKLE_ROOT_MISMATCH);
  });

  it("COINBASE_TOO_SHORT at 64 bytes in all, not at 65", () => {
    expectCode(verify(base, {coinbase: craftCompressed(tagged(0, 23))}), Code.COINBASE_TOO_SHORT);
    expectCode(verify(base, {coinbase: craftCompressed(tagged(0, 24))}), Code.MERKLE_ROOT_MISMATCH);
  });

  it("COINBASE_TOO_SHORT for a negative byte count (Java long arithmetic)", () => {
    expectCode(verify(base, {coinbase: craftCompressed(tagged(0, 59), -64n)}), Code.COINBASE_TOO_SHORT);
    expectCode(verify(base, {coinbase: craftCompressed(tagged(0, 59), 0n)}), Code.MERKLE_ROOT_MISMATCH);
  });

  it("TAG_NOT_FOUND when the tag is only in the hashed part", () => {
    expectCode(verify(base, {coinbase: craftCompressed(new Uint8Array(100), 64n)}), Code.TAG_NOT_FOUND);
  });
});
