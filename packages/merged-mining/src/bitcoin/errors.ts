/** Errors of the Bitcoin wire decoder (blocks, transactions, partial merkle trees). */
import {NodeError} from "@xchain/utils";

export enum BitcoinDecodeErrorCode {
  /** The bytes end before the structure does. */
  TRUNCATED = "BTC_DECODE_TRUNCATED",
  /** Bytes remain after the structure. */
  TRAILING_BYTES = "BTC_DECODE_TRAILING_BYTES",
  /** A count or length is larger than the remaining bytes could hold. */
  COUNT_TOO_LARGE = "BTC_DECODE_COUNT_TOO_LARGE",
  /** A transaction's segwit flag byte has bits other than the witness flag. */
  UNKNOWN_TX_FLAGS = "BTC_DECODE_UNKNOWN_TX_FLAGS",
  /** A partial merkle tree that parses but does not describe a tree (bitcoinj's `getTxnHashAndMerkleRoot`). */
  INVALID_PARTIAL_MERKLE_TREE = "BTC_DECODE_INVALID_PARTIAL_MERKLE_TREE",
}

/** Why a partial merkle tree is invalid: its shape, or an inner node that parses as a 64-byte transaction. */
export type PartialMerkleTreeInvalidReason = "invalid-partial-merkle-tree" | "64-byte-transaction";

export type BitcoinDecodeErrorType =
  | {code: BitcoinDecodeErrorCode.TRUNCATED; what: string; offset: number; needed: number}
  | {code: BitcoinDecodeErrorCode.TRAILING_BYTES; what: string; extra: number}
  | {code: BitcoinDecodeErrorCode.COUNT_TOO_LARGE; what: string; count: bigint}
  | {code: BitcoinDecodeErrorCode.UNKNOWN_TX_FLAGS; flags: number}
  | {code: BitcoinDecodeErrorCode.INVALID_PARTIAL_MERKLE_TREE; reason: PartialMerkleTreeInvalidReason};

/** Bytes that are not a well-formed Bitcoin structure. */
export class BitcoinDecodeError extends NodeError<BitcoinDecodeErrorType> {}
