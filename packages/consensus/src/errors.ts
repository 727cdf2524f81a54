/**
 * Typed errors of the header consensus rules: one code per rule failure, each with the expected
 * and actual values as metadata, so callers (peer scoring, the CLI, RPC) branch on `err.code`
 * and read `err.type` instead of parsing messages.
 */
import {bytesToHex, NodeError} from "@xchain/utils";

/** The consensus rule a header breaks; values are prefixed `HEADER_`. */
export enum HeaderErrorCode {
  /** Difficulty differs from the docs/protocol/consensus.md §1 formula applied to the parent. */
  BAD_DIFFICULTY = "HEADER_BAD_DIFFICULTY",
  /** minimumGasPrice outside the parent's ±1% band (docs/protocol/fees.md §1). */
  MIN_GAS_PRICE_OUT_OF_BAND = "HEADER_MIN_GAS_PRICE_OUT_OF_BAND",
  /** gasLimit below the network minimum (3,000,000). */
  GAS_LIMIT_BELOW_MINIMUM = "HEADER_GAS_LIMIT_BELOW_MINIMUM",
  /** gasLimit moved more than parent/1024 from the parent's. */
  GAS_LIMIT_OUT_OF_BAND = "HEADER_GAS_LIMIT_OUT_OF_BAND",
  /** gasUsed above gasLimit. */
  GAS_USED_ABOVE_LIMIT = "HEADER_GAS_USED_ABOVE_LIMIT",
  /** extraData longer than 32 bytes. */
  EXTRA_DATA_TOO_LONG = "HEADER_EXTRA_DATA_TOO_LONG",
  /** number is not the parent's number + 1. */
  NUMBER_NOT_PARENT_PLUS_ONE = "HEADER_NUMBER_NOT_PARENT_PLUS_ONE",
  /** parentHash is not the parent's hash. */
  PARENT_HASH_MISMATCH = "HEADER_PARENT_HASH_MISMATCH",
  /** timestamp too far ahead of the local clock. */
  TIMESTAMP_IN_FUTURE = "HEADER_TIMESTAMP_IN_FUTURE",
  /** timestamp not strictly greater than the parent's. */
  TIMESTAMP_NOT_AFTER_PARENT = "HEADER_TIMESTAMP_NOT_AFTER_PARENT",
  /** |Bitcoin header time − timestamp| not below the RSKIP-179 limit. */
  BTC_TIMESTAMP_TOO_FAR = "HEADER_BTC_TIMESTAMP_TOO_FAR",
  /** ummRoot present where RSKIP-UMM is not active, or absent where it is. */
  UMM_ROOT_PRESENCE = "HEADER_UMM_ROOT_PRESENCE",
  /** The header has no merged-mining fields (unsealed). */
  MERGED_MINING_FIELDS_MISSING = "HEADER_MERGED_MINING_FIELDS_MISSING",
  /** The fork-detection data in the coinbase differs from the one computed from the ancestors. */
  FORK_DETECTION_DATA_MISMATCH = "HEADER_FORK_DETECTION_DATA_MISMATCH",
  /** A header below block 449 commits to fork-detection data instead of its plain hash. */
  FORK_DETECTION_DATA_UNEXPECTED = "HEADER_FORK_DETECTION_DATA_UNEXPECTED",
  /** More uncles than the uncle list limit (10). */
  TOO_MANY_UNCLES = "HEADER_TOO_MANY_UNCLES",
  /** The header's uncleCount differs from the number of uncles in the block. */
  UNCLE_COUNT_MISMATCH = "HEADER_UNCLE_COUNT_MISMATCH",
  /** unclesHash differs from the hash of the uncle list. */
  UNCLES_HASH_MISMATCH = "HEADER_UNCLES_HASH_MISMATCH",
  /** An uncle is not older than the block (same height or higher). */
  UNCLE_NOT_OLDER = "HEADER_UNCLE_NOT_OLDER",
  /** An uncle's parent is more than 7 generations back. */
  UNCLE_TOO_OLD = "HEADER_UNCLE_TOO_OLD",
  /** The same uncle twice in the list. */
  UNCLE_DUPLICATE = "HEADER_UNCLE_DUPLICATE",
  /** An uncle is one of the block's own ancestors. */
  UNCLE_IS_ANCESTOR = "HEADER_UNCLE_IS_ANCESTOR",
  /** An uncle was already included by an ancestor within 7 generations. */
  UNCLE_ALREADY_INCLUDED = "HEADER_UNCLE_ALREADY_INCLUDED",
  /** An uncle's parent is not an ancestor of the block within 7 generations. */
  UNCLE_PARENT_UNKNOWN = "HEADER_UNCLE_PARENT_UNKNOWN",
  /** An uncle fails a header rule of its own; `cause` is that rule's code. */
  UNCLE_INVALID = "HEADER_UNCLE_INVALID",
}

/** Each code with its metadata: the expected and the actual values. */
export type HeaderErrorType =
  | {code: HeaderErrorCode.BAD_DIFFICULTY; expected: bigint; actual: bigint}
  | {code: HeaderErrorCode.MIN_GAS_PRICE_OUT_OF_BAND; min: bigint; max: bigint; actual: bigint}
  | {code: HeaderErrorCode.GAS_LIMIT_BELOW_MINIMUM; minimum: bigint; actual: bigint}
  | {code: HeaderErrorCode.GAS_LIMIT_OUT_OF_BAND; min: bigint; max: bigint; actual: bigint}
  | {code: HeaderErrorCode.GAS_USED_ABOVE_LIMIT; gasLimit: bigint; gasUsed: bigint}
  | {code: HeaderErrorCode.EXTRA_DATA_TOO_LONG; maxBytes: number; actualBytes: number}
  | {code: HeaderErrorCode.NUMBER_NOT_PARENT_PLUS_ONE; expected: number; actual: number}
  | {code: HeaderErrorCode.PARENT_HASH_MISMATCH; expected: Uint8Array; actual: Uint8Array}
  | {code: HeaderErrorCode.TIMESTAMP_IN_FUTURE; timestamp: number; nowSeconds: number; maxSecondsInFuture: number}
  | {code: HeaderErrorCode.TIMESTAMP_NOT_AFTER_PARENT; parentTimestamp: number; timestamp: number}
  | {code: HeaderErrorCode.BTC_TIMESTAMP_TOO_FAR; bitcoinTime: number; timestamp: number; maxDiffSeconds: number}
  | {code: HeaderErrorCode.UMM_ROOT_PRESENCE; expectedPresent: boolean; actualPresent: boolean}
  | {code: HeaderErrorCode.MERGED_MINING_FIELDS_MISSING}
  | {code: HeaderErrorCode.FORK_DETECTION_DATA_MISMATCH; expected: Uint8Array; actual: Uint8Array | undefined}
  | {code: HeaderErrorCode.FORK_DETECTION_DATA_UNEXPECTED; actual: Uint8Array}
  | {code: HeaderErrorCode.TOO_MANY_UNCLES; limit: number; actual: number}
  | {code: HeaderErrorCode.UNCLE_COUNT_MISMATCH; expected: number; actual: number}
  | {code: HeaderErrorCode.UNCLES_HASH_MISMATCH; expected: Uint8Array; actual: Uint8Array}
  | {code: HeaderErrorCode.UNCLE_NOT_OLDER; uncleIndex: number; uncleNumber: number; blockNumber: number}
  | {
      code: HeaderErrorCode.UNCLE_TOO_OLD;
      uncleIndex: number;
      uncleNumber: number;
      blockNumber: number;
      generationLimit: number;
    }
  | {code: HeaderErrorCode.UNCLE_DUPLICATE; uncleIndex: number; uncleHash: Uint8Array}
  | {code: HeaderErrorCode.UNCLE_IS_ANCESTOR; uncleIndex: number; uncleHash: Uint8Array}
  | {code: HeaderErrorCode.UNCLE_ALREADY_INCLUDED; uncleIndex: number; uncleHash: Uint8Array}
  | {code: HeaderErrorCode.UNCLE_PARENT_UNKNOWN; uncleIndex: number; parentHash: Uint8Array}
  | {code: HeaderErrorCode.UNCLE_INVALID; uncleIndex: number; uncleHash: Uint8Array; cause: string; detail: string};

/** A header that breaks a consensus rule; the message is derived from the metadata. */
export class HeaderError extends NodeError<HeaderErrorType> {
  constructor(type: HeaderErrorType) {
    super(type, describe(type));
  }
}

function hex(bytes: Uint8Array | undefined): string {
  return bytes === undefined ? "none" : `0x${bytesToHex(bytes)}`;
}

function describe(t: HeaderErrorType): string {
  switch (t.code) {
    case HeaderErrorCode.BAD_DIFFICULTY:
      return `difficulty ${t.actual}, expected ${t.expected}`;
    case HeaderErrorCode.MIN_GAS_PRICE_OUT_OF_BAND:
      return `minimumGasPrice ${t.actual} outside the parent band [${t.min}, ${t.max}]`;
    case HeaderErrorCode.GAS_LIMIT_BELOW_MINIMUM:
      return `gasLimit ${t.actual} below the minimum ${t.minimum}`;
    case HeaderErrorCode.GAS_LIMIT_OUT_OF_BAND:
      return `gasLimit ${t.actual} outside the parent band [${t.min}, ${t.max}]`;
    case HeaderErrorCode.GAS_USED_ABOVE_LIMIT:
      return `gasUsed ${t.gasUsed} above gasLimit ${t.gasLimit}`;
    case HeaderErrorCode.EXTRA_DATA_TOO_LONG:
      return `extraData has ${t.actualBytes} bytes, at most ${t.maxBytes} allowed`;
    case HeaderErrorCode.NUMBER_NOT_PARENT_PLUS_ONE:
      return `number ${t.actual}, expected parent + 1 = ${t.expected}`;
    case HeaderErrorCode.PARENT_HASH_MISMATCH:
      return `parentHash ${hex(t.actual)} is not the parent's hash ${hex(t.expected)}`;
    case HeaderErrorCode.TIMESTAMP_IN_FUTURE:
      return `timestamp ${t.timestamp} more than ${t.maxSecondsInFuture} s after local time ${t.nowSeconds}`;
    case HeaderErrorCode.TIMESTAMP_NOT_AFTER_PARENT:
      return `timestamp ${t.timestamp} not after the parent's ${t.parentTimestamp}`;
    case HeaderErrorCode.BTC_TIMESTAMP_TOO_FAR:
      return `timestamp ${t.timestamp} and Bitcoin header time ${t.bitcoinTime} differ by ${t.maxDiffSeconds} s or more`;
    case HeaderErrorCode.UMM_ROOT_PRESENCE:
      return t.expectedPresent ? "ummRoot missing where RSKIP-UMM is active" : "ummRoot present before RSKIP-UMM";
    case HeaderErrorCode.MERGED_MINING_FIELDS_MISSING:
      return "header has no merged-mining fields";
    case HeaderErrorCode.FORK_DETECTION_DATA_MISMATCH:
      return `fork-detection data ${hex(t.actual)}, expected ${hex(t.expected)}`;
    case HeaderErrorCode.FORK_DETECTION_DATA_UNEXPECTED:
      return `fork-detection data ${hex(t.actual)} below block 449`;
    case HeaderErrorCode.TOO_MANY_UNCLES:
      return `${t.actual} uncles, at most ${t.limit} allowed`;
    case HeaderErrorCode.UNCLE_COUNT_MISMATCH:
      return `uncleCount ${t.expected} but the block has ${t.actual} uncles`;
    case HeaderErrorCode.UNCLES_HASH_MISMATCH:
      return `unclesHash ${hex(t.actual)}, the uncle list hashes to ${hex(t.expected)}`;
    case HeaderErrorCode.UNCLE_NOT_OLDER:
      return `uncle ${t.uncleIndex} has number ${t.uncleNumber}, not below the block's ${t.blockNumber}`;
    case HeaderErrorCode.UNCLE_TOO_OLD:
      return `uncle ${t.uncleIndex} (number ${t.uncleNumber}) is more than ${t.generationLimit} generations before block ${t.blockNumber}`;
    case HeaderErrorCode.UNCLE_DUPLICATE:
      return `uncle ${t.uncleIndex} ${hex(t.uncleHash)} appears twice`;
    case HeaderErrorCode.UNCLE_IS_ANCESTOR:
      return `uncle ${t.uncleIndex} ${hex(t.uncleHash)} is an ancestor of the block`;
    case HeaderErrorCode.UNCLE_ALREADY_INCLUDED:
      return `uncle ${t.uncleIndex} ${hex(t.uncleHash)} was already included by an ancestor`;
    case HeaderErrorCode.UNCLE_PARENT_UNKNOWN:
      return `uncle ${t.uncleIndex}'s parent ${hex(t.parentHash)} is not a recent ancestor of the block`;
    case HeaderErrorCode.UNCLE_INVALID:
      return `uncle ${t.uncleIndex} ${hex(t.uncleHash)} is invalid: ${t.cause}: ${t.detail}`;
  }
}
