import {NodeError} from "@xchain/utils";

/** Why a receipt does not decode. */
export enum ReceiptDecodeErrorCode {
  /** The bytes are not well-formed RLP, or an element is a list where a byte string belongs (or the reverse). */
  BAD_RLP = "RECEIPT_DECODE_BAD_RLP",
  /** The receipt list does not have exactly 6 elements. */
  WRONG_FIELD_COUNT = "RECEIPT_DECODE_WRONG_FIELD_COUNT",
  /** postTxState and status are not both `0x01` (success) or both empty (failure). */
  BAD_STATUS = "RECEIPT_DECODE_BAD_STATUS",
  /** A gas value has a leading zero byte or exceeds a signed 64-bit long. */
  BAD_NUMBER = "RECEIPT_DECODE_BAD_NUMBER",
  /** The bloom, a log address or a log topic has the wrong length. */
  BAD_FIELD_LENGTH = "RECEIPT_DECODE_BAD_FIELD_LENGTH",
  /** A log is not `[address, topics, data]`. */
  BAD_LOG = "RECEIPT_DECODE_BAD_LOG",
}

/** Each decode error code with its metadata. */
export type ReceiptDecodeErrorType =
  | {code: ReceiptDecodeErrorCode.BAD_RLP; reason: string}
  | {code: ReceiptDecodeErrorCode.WRONG_FIELD_COUNT; count: number}
  | {code: ReceiptDecodeErrorCode.BAD_STATUS}
  | {code: ReceiptDecodeErrorCode.BAD_NUMBER; field: string}
  | {code: ReceiptDecodeErrorCode.BAD_FIELD_LENGTH; field: string; expected: number; actual: number}
  | {code: ReceiptDecodeErrorCode.BAD_LOG; index: number; count: number};

/** A transaction receipt that cannot be decoded. */
export class ReceiptDecodeError extends NodeError<ReceiptDecodeErrorType> {}
