import {NodeError} from "@xchain/utils";

export enum HeaderDecodeErrorCode {
  /** The bytes are not a well-formed RLP list. */
  BAD_RLP = "HEADER_DECODE_BAD_RLP",
  /** The list does not have one of the element counts a version-0 header can have (16, 17, 19 or 20). */
  WRONG_FIELD_COUNT = "HEADER_DECODE_WRONG_FIELD_COUNT",
  /** A fixed-size field (hash, address, bloom, ummRoot) has the wrong length. */
  BAD_FIELD_LENGTH = "HEADER_DECODE_BAD_FIELD_LENGTH",
  /** A numeric field is negative or out of range. */
  BAD_NUMBER = "HEADER_DECODE_BAD_NUMBER",
}

export type HeaderDecodeErrorType =
  | {code: HeaderDecodeErrorCode.BAD_RLP; reason: string}
  | {code: HeaderDecodeErrorCode.WRONG_FIELD_COUNT; count: number}
  | {code: HeaderDecodeErrorCode.BAD_FIELD_LENGTH; field: string; expected: string; actual: number}
  | {code: HeaderDecodeErrorCode.BAD_NUMBER; field: string; reason: string};

/** A block header that cannot be decoded. */
export class HeaderDecodeError extends NodeError<HeaderDecodeErrorType> {}
