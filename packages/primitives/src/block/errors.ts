import {NodeError} from "@xchain/utils";

/** Why a block body does not decode. */
export enum BlockDecodeErrorCode {
  /** The bytes are not a well-formed RLP list. */
  BAD_RLP = "BLOCK_DECODE_BAD_RLP",
  /** The block list does not have exactly 3 items (header, transactions, uncles). */
  WRONG_ITEM_COUNT = "BLOCK_DECODE_WRONG_ITEM_COUNT",
  /** The header, the transaction list, the uncle list or an uncle is a byte string, not a list. */
  NOT_A_LIST = "BLOCK_DECODE_NOT_A_LIST",
  /** The header does not decode; `reason` is its `HeaderDecodeErrorCode`. */
  BAD_HEADER = "BLOCK_DECODE_BAD_HEADER",
  /** A transaction does not decode (a byte string is a typed one); `reason` is its `TransactionDecodeErrorCode`. */
  BAD_TRANSACTION = "BLOCK_DECODE_BAD_TRANSACTION",
  /** An uncle header does not decode; `reason` is its `HeaderDecodeErrorCode`. */
  BAD_UNCLE = "BLOCK_DECODE_BAD_UNCLE",
}

/** Each decode error code with its metadata. */
export type BlockDecodeErrorType =
  | {code: BlockDecodeErrorCode.BAD_RLP; reason: string}
  | {code: BlockDecodeErrorCode.WRONG_ITEM_COUNT; count: number}
  | {code: BlockDecodeErrorCode.NOT_A_LIST; item: string}
  | {code: BlockDecodeErrorCode.BAD_HEADER; reason: string}
  | {code: BlockDecodeErrorCode.BAD_TRANSACTION; index: number; reason: string}
  | {code: BlockDecodeErrorCode.BAD_UNCLE; index: number; reason: string};

/** A block body that cannot be decoded. */
export class BlockDecodeError extends NodeError<BlockDecodeErrorType> {}
