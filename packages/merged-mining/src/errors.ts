/**
 * The typed errors of merged-mining verification: one code per check of docs/protocol/merged-mining.md §1, in
 * order.
 */
import {NodeError} from "@xchain/utils";

export enum MergedMiningErrorCode {
  /**
   * Check 1: missing with RSKIP-180, longer than 960 bytes, RSKIP-92 proof not a multiple of 32, PMT that
   * does not parse.
   */
  MERKLE_PROOF_INVALID = "MM_MERKLE_PROOF_INVALID",
  /** Check 2: no compressed coinbase. */
  COINBASE_MISSING = "MM_COINBASE_MISSING",
  /** Check 2: Bitcoin header missing or not exactly 80 bytes. */
  BTC_HEADER_INVALID = "MM_BTC_HEADER_INVALID",
  /** Check 3: the Bitcoin header hash is above the target of the RSK difficulty. */
  POW_ABOVE_TARGET = "MM_POW_ABOVE_TARGET",
  /** Check 4: compressed coinbase shorter than its 40-byte midstate. */
  COINBASE_MIDSTATE_INVALID = "MM_COINBASE_MIDSTATE_INVALID",
  /** Check 5: `RSKBLOCK:` followed by hashForMergedMining is not in the coinbase tail. */
  TAG_NOT_FOUND = "MM_TAG_NOT_FOUND",
  /** Check 6: the expected tag starts at tail position 64 or later. */
  TAG_POSITION_TOO_LATE = "MM_TAG_POSITION_TOO_LATE",
  /** Check 7: another `RSKBLOCK:` follows the expected tag. */
  TAG_NOT_LAST = "MM_TAG_NOT_LAST",
  /** Check 8: more than 128 bytes follow hashForMergedMining. */
  TOO_MANY_BYTES_AFTER_TAG = "MM_TOO_MANY_BYTES_AFTER_TAG",
  /** Check 9: the whole coinbase is 64 bytes or shorter. */
  COINBASE_TOO_SHORT = "MM_COINBASE_TOO_SHORT",
  /** Check 10: the coinbase does not reach the Bitcoin header's merkle root through the proof. */
  MERKLE_ROOT_MISMATCH = "MM_MERKLE_ROOT_MISMATCH",
  /**
   * docs/protocol/header.md §5 step 3: a sealed header whose coinbase lacks `RSKBLOCK:` + base-hash prefix +
   * 12 bytes.
   */
  FORK_DETECTION_DATA_NOT_FOUND = "MM_FORK_DETECTION_DATA_NOT_FOUND",
}

/** Why a merkle proof is rejected before it is used (check 1). */
export type MerkleProofInvalidReason =
  | "missing"
  | "too-long"
  | "not-a-multiple-of-32"
  | "malformed-partial-merkle-tree";

/** Why the coinbase does not reach the merkle root (check 10). */
export type MerkleRootMismatchReason =
  | "root-differs"
  | "64-byte-transaction"
  | "invalid-partial-merkle-tree"
  | "coinbase-not-matched";

export type MergedMiningErrorType =
  | {code: MergedMiningErrorCode.MERKLE_PROOF_INVALID; reason: MerkleProofInvalidReason; length: number}
  | {code: MergedMiningErrorCode.COINBASE_MISSING}
  | {code: MergedMiningErrorCode.BTC_HEADER_INVALID; length: number}
  | {code: MergedMiningErrorCode.POW_ABOVE_TARGET; powValue: bigint; target: bigint}
  | {code: MergedMiningErrorCode.COINBASE_MIDSTATE_INVALID; length: number}
  | {code: MergedMiningErrorCode.TAG_NOT_FOUND}
  | {code: MergedMiningErrorCode.TAG_POSITION_TOO_LATE; position: number}
  | {code: MergedMiningErrorCode.TAG_NOT_LAST; position: number; lastTagPosition: number}
  | {code: MergedMiningErrorCode.TOO_MANY_BYTES_AFTER_TAG; bytesAfter: number}
  | {code: MergedMiningErrorCode.COINBASE_TOO_SHORT; length: bigint}
  | {code: MergedMiningErrorCode.MERKLE_ROOT_MISMATCH; reason: MerkleRootMismatchReason}
  | {code: MergedMiningErrorCode.FORK_DETECTION_DATA_NOT_FOUND; blockNumber: number};

/**
 * A merged-mining proof, or one of its parts, that breaks a rule of docs/protocol/merged-mining.md (or
 * docs/protocol/header.md §5 step 3).
 */
export class MergedMiningError extends NodeError<MergedMiningErrorType> {
  constructor(type: MergedMiningErrorType) {
    super(type, describe(type));
  }
}

function describe(type: MergedMiningErrorType): string {
  switch (type.code) {
    case MergedMiningErrorCode.MERKLE_PROOF_INVALID:
      return `merged-mining merkle proof of ${type.length} bytes is invalid: ${type.reason}`;
    case MergedMiningErrorCode.COINBASE_MISSING:
      return "merged-mining coinbase is missing";
    case MergedMiningErrorCode.BTC_HEADER_INVALID:
      return `Bitcoin merged-mining header must be 80 bytes but was ${type.length}`;
    case MergedMiningErrorCode.POW_ABOVE_TARGET:
      return `Bitcoin header hash ${type.powValue.toString(16)} is above target ${type.target.toString(16)}`;
    case MergedMiningErrorCode.COINBASE_MIDSTATE_INVALID:
      return `compressed coinbase of ${type.length} bytes is shorter than its 40-byte midstate`;
    case MergedMiningErrorCode.TAG_NOT_FOUND:
      return "coinbase tail does not contain RSKBLOCK: followed by hashForMergedMining";
    case MergedMiningErrorCode.TAG_POSITION_TOO_LATE:
      return `RSKBLOCK: tag at tail position ${type.position}, must be below 64`;
    case MergedMiningErrorCode.TAG_NOT_LAST:
      return `RSKBLOCK: tag at tail position ${type.position} is not the last one (${type.lastTagPosition})`;
    case MergedMiningErrorCode.TOO_MANY_BYTES_AFTER_TAG:
      return `${type.bytesAfter} bytes after hashForMergedMining, at most 128 allowed`;
    case MergedMiningErrorCode.COINBASE_TOO_SHORT:
      return `coinbase of ${type.length} bytes, must be longer than 64`;
    case MergedMiningErrorCode.MERKLE_ROOT_MISMATCH:
      return `coinbase does not reach the Bitcoin merkle root: ${type.reason}`;
    case MergedMiningErrorCode.FORK_DETECTION_DATA_NOT_FOUND:
      return `fork-detection data of block ${type.blockNumber} not found in its coinbase`;
  }
}
