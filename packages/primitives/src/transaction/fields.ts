/** Field layout of a legacy Rootstock transaction (docs/protocol/transactions.md). */

/** Index of each field in the transaction's 9-element RLP list. */
export enum TransactionField {
  nonce = 0,
  gasPrice = 1,
  gasLimit = 2,
  to = 3,
  value = 4,
  data = 5,
  v = 6,
  r = 7,
  s = 8,
}

/** Number of elements of a legacy transaction. */
export const TRANSACTION_FIELD_COUNT = 9;
/** Length of an account address. */
export const ADDRESS_LENGTH = 20;

/** What a sender chooses before signing. */
export interface TransactionValues {
  nonce: bigint;
  /** Wei per gas. */
  gasPrice: bigint;
  gasLimit: bigint;
  /** 20 bytes, or undefined for a contract creation (the empty string on the wire). */
  to: Uint8Array | undefined;
  /** Wei. */
  value: bigint;
  data: Uint8Array;
}

/** The context a transaction is decoded in. */
export interface TransactionDecodeOptions {
  /** The node's chain id: v may carry it or chain id 0, nothing else (docs/protocol/transactions.md). */
  chainId: number;
  /** Accept the unsigned REMASC transaction (only the last transaction of a block body, docs/protocol/header.md §6). */
  allowRemasc?: boolean;
}
