import {NodeError} from "@xchain/utils";

/** Why a transaction does not decode. */
export enum TransactionDecodeErrorCode {
  /** The bytes are not well-formed RLP. */
  BAD_RLP = "TX_DECODE_BAD_RLP",
  /**
   * An EIP-2718 typed transaction: bytes starting with a type byte, or an RLP byte string (the
   * network form) instead of a list. Only legacy transactions exist (docs/protocol/transactions.md).
   */
  TYPED_TRANSACTION_UNSUPPORTED = "TX_DECODE_TYPED_TRANSACTION_UNSUPPORTED",
  /** The list does not have exactly 9 elements. */
  WRONG_FIELD_COUNT = "TX_DECODE_WRONG_FIELD_COUNT",
  /** An element that must be a byte string is a list. */
  FIELD_IS_LIST = "TX_DECODE_FIELD_IS_LIST",
  /** `to` is neither empty (contract creation) nor 20 bytes. */
  BAD_TO = "TX_DECODE_BAD_TO",
  /** A numeric field is longer than 32 bytes, or gasPrice/value do not fit rskj's 32-byte signed Coin. */
  NUMBER_OUT_OF_RANGE = "TX_DECODE_NUMBER_OUT_OF_RANGE",
  /** v is not a single byte of value 27, 28, or chainId·2 + 35/36. */
  BAD_V = "TX_DECODE_BAD_V",
  /** v carries a chain id other than 0 and the node's. */
  FOREIGN_CHAIN_ID = "TX_DECODE_FOREIGN_CHAIN_ID",
  /** r or s is longer than 32 bytes. */
  SIGNATURE_TOO_LONG = "TX_DECODE_SIGNATURE_TOO_LONG",
  /** r or s is zero or not below the secp256k1 group order. */
  SIGNATURE_OUT_OF_RANGE = "TX_DECODE_SIGNATURE_OUT_OF_RANGE",
  /** s is not strictly below floor(secp256k1n / 2). */
  HIGH_S = "TX_DECODE_HIGH_S",
  /** v is empty (no signature) and this is not the REMASC transaction closing a block. */
  UNSIGNED = "TX_DECODE_UNSIGNED",
}

/** Each decode error code with its metadata. */
export type TransactionDecodeErrorType =
  | {code: TransactionDecodeErrorCode.BAD_RLP; reason: string}
  | {code: TransactionDecodeErrorCode.TYPED_TRANSACTION_UNSUPPORTED; txType: number | undefined}
  | {code: TransactionDecodeErrorCode.WRONG_FIELD_COUNT; count: number}
  | {code: TransactionDecodeErrorCode.FIELD_IS_LIST; field: string}
  | {code: TransactionDecodeErrorCode.BAD_TO; length: number}
  | {code: TransactionDecodeErrorCode.NUMBER_OUT_OF_RANGE; field: string}
  | {code: TransactionDecodeErrorCode.BAD_V; v: string}
  | {code: TransactionDecodeErrorCode.FOREIGN_CHAIN_ID; chainId: number; expected: number}
  | {code: TransactionDecodeErrorCode.SIGNATURE_TOO_LONG; field: "r" | "s"; length: number}
  | {code: TransactionDecodeErrorCode.SIGNATURE_OUT_OF_RANGE; field: "r" | "s"}
  | {code: TransactionDecodeErrorCode.HIGH_S}
  | {code: TransactionDecodeErrorCode.UNSIGNED};

/** A transaction that cannot be decoded or whose signature fields are not acceptable. */
export class TransactionDecodeError extends NodeError<TransactionDecodeErrorType> {}

/** Why no sender can be recovered. */
export enum TransactionSignatureErrorCode {
  /** No public key can be recovered from (r, s, v) over the signing hash. */
  UNRECOVERABLE = "TX_SIGNATURE_UNRECOVERABLE",
}

/** The signature error code with its metadata. */
export type TransactionSignatureErrorType = {code: TransactionSignatureErrorCode.UNRECOVERABLE; reason: string};

/** A well-formed signature from which no sender can be recovered. */
export class TransactionSignatureError extends NodeError<TransactionSignatureErrorType> {}
