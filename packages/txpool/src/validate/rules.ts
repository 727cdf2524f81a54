/**
 * The checks of docs/protocol/transactions.md against the best block and the sender's account, in rskj's
 * order: init code size, gas limit, nonce range, balance, minimum gas price, intrinsic gas, gas price cap.
 */

import {intrinsicGas, MAX_INITCODE_SIZE} from "@xchain/execution";
import type {Transaction} from "@xchain/primitives";
import {TxPoolError} from "../errors.ts";
import {TxPoolErrorCode} from "../types.ts";

/**
 * RSKIP-252: the pool admits at most 80 × the best block's minimumGasPrice (blocks allow 100 ×,
 * docs/protocol/fees.md §1).
 */
export const POOL_GAS_PRICE_CAP_MULTIPLIER = 80n;

/** What a transaction is checked against. */
export interface AdmissionContext {
  /** The best block's gas limit. */
  blockGasLimit: bigint;
  /** The best block's minimumGasPrice. */
  minimumGasPrice: bigint;
  /** Whether RSKIP-252 is active at the best block (rskj asks at the best block's number). */
  gasPriceCapActive: boolean;
  /** The sender's nonce and balance at the best block. */
  account: {nonce: bigint; balance: bigint};
  /** What the sender's other pooled transactions may cost (the one replaced left out). */
  pooledCost: bigint;
  /** See `TxPoolOptions.maxNonceGap`. */
  maxNonceGap: number;
}

/** The most a transaction can cost its sender: gasLimit × gasPrice + value. */
export function maxCost(tx: Transaction): bigint {
  return tx.gasLimit * tx.gasPrice + tx.value;
}

/** Throws the `TxPoolError` of the first docs/protocol/transactions.md §4 check the transaction fails. */
export function validateAdmission(tx: Transaction, c: AdmissionContext): void {
  if (tx.to === undefined && tx.data.length > MAX_INITCODE_SIZE) {
    throw new TxPoolError({
      code: TxPoolErrorCode.INITCODE_TOO_LARGE,
      sizeBytes: tx.data.length,
      maxBytes: MAX_INITCODE_SIZE,
    });
  }
  if (tx.gasLimit > c.blockGasLimit) {
    throw new TxPoolError({
      code: TxPoolErrorCode.GAS_LIMIT_ABOVE_BLOCK,
      gasLimit: tx.gasLimit,
      blockGasLimit: c.blockGasLimit,
    });
  }
  const accountNonce = c.account.nonce;
  if (tx.nonce < accountNonce)
    throw new TxPoolError({code: TxPoolErrorCode.NONCE_TOO_LOW, nonce: tx.nonce, accountNonce});
  if (tx.nonce >= accountNonce + BigInt(c.maxNonceGap)) {
    throw new TxPoolError({code: TxPoolErrorCode.NONCE_TOO_HIGH, nonce: tx.nonce, accountNonce, maxGap: c.maxNonceGap});
  }
  // The sender must afford all its pooled transactions together, so that each stays includable.
  const required = maxCost(tx) + c.pooledCost;
  if (c.account.balance < required) {
    throw new TxPoolError({code: TxPoolErrorCode.INSUFFICIENT_FUNDS, balance: c.account.balance, required});
  }
  if (tx.gasPrice < c.minimumGasPrice) {
    throw new TxPoolError({
      code: TxPoolErrorCode.GAS_PRICE_TOO_LOW,
      gasPrice: tx.gasPrice,
      minimumGasPrice: c.minimumGasPrice,
    });
  }
  const intrinsic = intrinsicGas(tx);
  if (tx.gasLimit < intrinsic) {
    throw new TxPoolError({
      code: TxPoolErrorCode.INTRINSIC_GAS_TOO_LOW,
      gasLimit: tx.gasLimit,
      intrinsicGas: intrinsic,
    });
  }
  const cap = c.minimumGasPrice * POOL_GAS_PRICE_CAP_MULTIPLIER;
  if (c.gasPriceCapActive && c.minimumGasPrice > 0n && tx.gasPrice > cap) {
    throw new TxPoolError({code: TxPoolErrorCode.GAS_PRICE_ABOVE_CAP, gasPrice: tx.gasPrice, cap});
  }
}

/**
 * The least gas price that replaces a pooled transaction paying `gasPrice`: `bumpPercent` more,
 * rounded up, and at least 1 wei more.
 */
export function replacementGasPrice(gasPrice: bigint, bumpPercent: number): bigint {
  const bumped = (gasPrice * BigInt(100 + bumpPercent) + 99n) / 100n;
  return bumped > gasPrice ? bumped : gasPrice + 1n;
}
