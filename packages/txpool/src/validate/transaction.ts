/**
 * The checks of docs/protocol/transactions.md that look at the transaction alone, before any state: size,
 * legacy form and decoding, chain id, REMASC, signature. They run before a transaction waits for the pool.
 */
import {
  isRemascTransaction,
  Transaction,
  TransactionDecodeError,
  TransactionDecodeErrorCode,
  TransactionSignatureError,
} from "@xchain/primitives";
import {TxPoolError} from "../errors.ts";
import {TxPoolErrorCode} from "../types.ts";

/** Decode failures that are about the signature rather than the encoding. */
const SIGNATURE_CODES = new Set<TransactionDecodeErrorCode>([
  TransactionDecodeErrorCode.BAD_V,
  TransactionDecodeErrorCode.SIGNATURE_TOO_LONG,
  TransactionDecodeErrorCode.SIGNATURE_OUT_OF_RANGE,
  TransactionDecodeErrorCode.HIGH_S,
  TransactionDecodeErrorCode.UNSIGNED,
]);

/** Refuses `sizeBytes` above `maxBytes` (TOO_LARGE). */
export function checkSize(sizeBytes: number, maxBytes: number): void {
  if (sizeBytes > maxBytes) throw new TxPoolError({code: TxPoolErrorCode.TOO_LARGE, sizeBytes, maxBytes});
}

/**
 * Decodes raw bytes as a legacy transaction of `chainId`, mapping decode errors to pool codes
 * (WRONG_CHAIN_ID, INVALID_SIGNATURE, DECODE). The REMASC transaction decodes, to be refused by
 * `checkTransaction` with its own code.
 */
export function decodeTransaction(raw: Uint8Array, chainId: number): Transaction {
  try {
    return Transaction.decode(raw, {chainId, allowRemasc: true});
  } catch (e) {
    if (!(e instanceof TransactionDecodeError)) throw e;
    if (e.type.code === TransactionDecodeErrorCode.FOREIGN_CHAIN_ID) {
      throw new TxPoolError({code: TxPoolErrorCode.WRONG_CHAIN_ID, chainId: e.type.chainId, expected: chainId});
    }
    if (SIGNATURE_CODES.has(e.type.code)) {
      throw new TxPoolError({code: TxPoolErrorCode.INVALID_SIGNATURE, detail: e.message});
    }
    throw new TxPoolError({code: TxPoolErrorCode.DECODE, reason: e.type.code, detail: e.message});
  }
}

/**
 * Chain id (none, 0 or the node's, docs/protocol/transactions.md), REMASC (not accepted from outside a block) and a
 * recoverable signature; returns the sender.
 */
export function checkTransaction(tx: Transaction, chainId: number): Uint8Array {
  if (tx.chainId !== undefined && tx.chainId !== chainId) {
    throw new TxPoolError({code: TxPoolErrorCode.WRONG_CHAIN_ID, chainId: tx.chainId, expected: chainId});
  }
  if (isRemascTransaction(tx)) throw new TxPoolError({code: TxPoolErrorCode.REMASC_NOT_ACCEPTED});
  try {
    return tx.sender();
  } catch (e) {
    if (e instanceof TransactionSignatureError) {
      throw new TxPoolError({code: TxPoolErrorCode.INVALID_SIGNATURE, detail: e.message});
    }
    throw e;
  }
}
