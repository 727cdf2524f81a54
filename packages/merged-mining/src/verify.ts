/**
 * The merged-mining proof rule (docs/protocol/merged-mining.md §1, rskj's `ProofOfWorkRule`, post-RSKIP-98
 * path): ten checks in order.
 */
import type {BlockHeader, MergedMiningFields} from "@xchain/primitives";
import {concatBytes, lastIndexOfBytes} from "@xchain/utils";
import {assertBitcoinHeaderSize, MERKLE_ROOT_OFFSET} from "./bitcoin/header.ts";
import {coinbaseTxidFromParts, splitCompressedCoinbase} from "./coinbase.ts";
import {
  HASH_SIZE,
  MAX_BYTES_AFTER_MERGED_MINING_HASH,
  MAX_TAG_POSITION_IN_TAIL,
  MIN_COINBASE_LENGTH_EXCLUSIVE,
  RSK_TAG,
} from "./constants.ts";
import {MergedMiningError, MergedMiningErrorCode} from "./errors.ts";
import {sealedHashForMergedMining} from "./forkDetection.ts";
import {GenesisMerkleProofValidator} from "./merkleProof/genesis.ts";
import {type MerkleProofValidator, Rskip92MerkleProofValidator} from "./merkleProof/rskip92.ts";
import {bitcoinPowValue, powTarget} from "./pow.ts";

/** Everything the proof rule looks at. */
export interface MergedMiningProofInput {
  /** The Bitcoin header; empty counts as missing (rskj decodes an empty RLP string as null). */
  bitcoinHeader: Uint8Array;
  /**
   * RSKIP-92 flat proof, or a partial merkle tree before RSKIP-92; empty is a valid RSKIP-92 proof of a
   * one-transaction block.
   */
  merkleProof: Uint8Array;
  /** The compressed coinbase (docs/protocol/merged-mining.md §3); empty counts as missing. */
  coinbase: Uint8Array;
  /** 32 bytes, fork-detection data already substituted (docs/protocol/header.md §5). */
  hashForMergedMining: Uint8Array;
  difficulty: bigint;
  rskip92Active: boolean;
  rskip180Active: boolean;
}

/** Which rules are active at a header's height. */
export interface MergedMiningRules {
  rskip92Active: boolean;
  rskip180Active: boolean;
  /** RSKIP-110: hashForMergedMining carries fork-detection data from block 449 on. */
  forkDetectionActive: boolean;
}

/**
 * Runs the ten checks of docs/protocol/merged-mining.md §1 in order; throws MergedMiningError with the first
 * failing check's code.
 */
export function verifyMergedMiningProof(input: MergedMiningProofInput): void {
  runChecks(input, input.difficulty, input, () => input.hashForMergedMining);
}

/**
 * The proof rule on a sealed header, in rskj's order: hashForMergedMining (and so the fork-detection
 * data, FORK_DETECTION_DATA_NOT_FOUND) is only needed from check 5 on. A header without merged-mining
 * fields fails check 1 (rskj builds its merkle proof validator from a null proof).
 */
export function verifyHeaderMergedMining(header: BlockHeader, rules: MergedMiningRules): void {
  const fields = header.mergedMining;
  if (!fields) {
    throw new MergedMiningError({code: MergedMiningErrorCode.MERKLE_PROOF_INVALID, reason: "missing", length: 0});
  }
  runChecks(fields, header.difficulty, rules, () => sealedHashForMergedMining(header, rules.forkDetectionActive));
}

function runChecks(
  fields: MergedMiningFields,
  difficulty: bigint,
  rules: Omit<MergedMiningRules, "forkDetectionActive">,
  hashForMergedMining: () => Uint8Array,
): void {
  const {bitcoinHeader, merkleProof, coinbase} = fields;
  // 1. The proof format, by height.
  const proofValidator: MerkleProofValidator = rules.rskip92Active
    ? new Rskip92MerkleProofValidator(merkleProof, rules.rskip180Active)
    : new GenesisMerkleProofValidator(merkleProof);

  // 2. Coinbase present; Bitcoin header present and exactly 80 bytes (RSKIP-98).
  if (coinbase.length === 0) throw new MergedMiningError({code: MergedMiningErrorCode.COINBASE_MISSING});
  assertBitcoinHeaderSize(bitcoinHeader);

  // 3. Proof of work; the Bitcoin `bits` are not checked.
  const powValue = bitcoinPowValue(bitcoinHeader);
  const target = powTarget(difficulty);
  if (powValue > target) throw new MergedMiningError({code: MergedMiningErrorCode.POW_ABOVE_TARGET, powValue, target});

  // 4. Midstate material and tail.
  const parts = splitCompressedCoinbase(coinbase);
  const tail = parts.tail;

  // 5. The last "RSKBLOCK:" + hashForMergedMining in the tail.
  const expected = concatBytes(RSK_TAG, hashForMergedMining());
  const position = lastIndexOfBytes(tail, expected);
  if (position < 0) throw new MergedMiningError({code: MergedMiningErrorCode.TAG_NOT_FOUND});

  // 6. Inside the first unhashed SHA-256 block: otherwise another midstate cut (one block later)
  // would give a second compressed coinbase, a different header, with the same proof.
  if (position >= MAX_TAG_POSITION_IN_TAIL) {
    throw new MergedMiningError({code: MergedMiningErrorCode.TAG_POSITION_TOO_LATE, position});
  }

  // 7. No later "RSKBLOCK:" at all.
  const lastTagPosition = lastIndexOfBytes(tail, RSK_TAG);
  if (lastTagPosition !== position) {
    throw new MergedMiningError({code: MergedMiningErrorCode.TAG_NOT_LAST, position, lastTagPosition});
  }

  // 8. At most 128 bytes after the hash.
  const bytesAfter = tail.length - position - RSK_TAG.length - HASH_SIZE;
  if (bytesAfter > MAX_BYTES_AFTER_MERGED_MINING_HASH) {
    throw new MergedMiningError({code: MergedMiningErrorCode.TOO_MANY_BYTES_AFTER_TAG, bytesAfter});
  }

  // 9. Whole coinbase longer than 64 bytes (no 64-byte leaf/node ambiguity). rskj adds in Java
  // `long` arithmetic, so the sum wraps like a signed 64-bit integer.
  const length = BigInt.asIntN(64, parts.byteCount + BigInt(tail.length));
  if (length <= BigInt(MIN_COINBASE_LENGTH_EXCLUSIVE)) {
    throw new MergedMiningError({code: MergedMiningErrorCode.COINBASE_TOO_SHORT, length});
  }

  // 10. The coinbase txid reaches the Bitcoin header's merkle root.
  const merkleRoot = bitcoinHeader.subarray(MERKLE_ROOT_OFFSET, MERKLE_ROOT_OFFSET + HASH_SIZE);
  proofValidator.verify(merkleRoot, coinbaseTxidFromParts(parts));
}
