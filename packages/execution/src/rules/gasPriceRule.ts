/**
 * The transaction gas-price rule of a block (docs/protocol/fees.md §1, rskj `TxsMinGasPriceRule` and RSKIP-252
 * `BlockTxsMaxGasPriceRule`): every transaction but the closing REMASC one pays at least the
 * block's minimumGasPrice and, from RSKIP-252 on with a minimumGasPrice above 0, at most 100 × it.
 * Block import (chain) and execution both apply it, each reporting a break with its own error.
 */
import {TransactionInvalidCode, type TransactionInvalidErrorType} from "../errors.ts";

/** RSKIP-252: a block's transactions pay at most this multiple of its minimumGasPrice. */
export const GAS_PRICE_CAP_MULTIPLIER = 100n;

/** How a gas price breaks the rule: the metadata of execution's `TransactionInvalidError`. */
export type GasPriceViolation = Extract<
  TransactionInvalidErrorType,
  {code: TransactionInvalidCode.GAS_PRICE_BELOW_MINIMUM | TransactionInvalidCode.GAS_PRICE_ABOVE_CAP}
>;

/**
 * How a transaction paying `gasPrice` breaks the rule in a block of `minimumGasPrice`, or
 * undefined when the price is allowed; `capActive` says whether RSKIP-252 is active at the
 * block's height. The floor is checked first.
 */
export function gasPriceViolation(
  gasPrice: bigint,
  minimumGasPrice: bigint,
  capActive: boolean,
): GasPriceViolation | undefined {
  if (gasPrice < minimumGasPrice) {
    return {code: TransactionInvalidCode.GAS_PRICE_BELOW_MINIMUM, gasPrice, minimumGasPrice};
  }
  const cap = minimumGasPrice * GAS_PRICE_CAP_MULTIPLIER;
  if (capActive && minimumGasPrice > 0n && gasPrice > cap) {
    return {code: TransactionInvalidCode.GAS_PRICE_ABOVE_CAP, gasPrice, cap};
  }
  return undefined;
}
