/**
 * The REMASC transaction (docs/protocol/header.md §6, docs/protocol/fees.md §2): unsigned, to the REMASC
 * precompile, zero gasPrice, gasLimit and value, no data. It closes every block and triggers the fee payout.
 */
import {equalBytes, hexToBytes} from "@xchain/utils";
import type {TransactionValues} from "./fields.ts";

/** The REMASC precompiled contract. */
export const REMASC_ADDRESS: Uint8Array = hexToBytes("0000000000000000000000000000000001000008");

/** The sender rskj reports for the REMASC transaction (which has no signature): the zero address. */
export const REMASC_SENDER: Uint8Array = new Uint8Array(20);

/** The fields `isRemascTransaction` reads; `v` is undefined when the transaction is unsigned. */
export type RemascCandidate = Readonly<TransactionValues> & {readonly v: number | undefined};

/**
 * rskj's `Transaction.isRemascTransaction` without the position check (the caller checks that it
 * is the last transaction of its block): to REMASC, unsigned, no data, zero value, gasLimit and gasPrice.
 */
export function isRemascTransaction(tx: RemascCandidate): boolean {
  return (
    tx.to !== undefined &&
    equalBytes(tx.to, REMASC_ADDRESS) &&
    tx.v === undefined &&
    tx.data.length === 0 &&
    tx.value === 0n &&
    tx.gasLimit === 0n &&
    tx.gasPrice === 0n
  );
}

// The REMASC rule (docs/protocol/header.md §6, docs/protocol/fees.md §1 `RemascValidationRule`): a block's
// last transaction is the REMASC transaction, and no other is. Block import (chain) checks both clauses
// before execution; execution checks the first up front and the second transaction by transaction, in order
// with its other checks (which also keeps a REMASC candidate out of block assembly).

/** The REMASC transaction that closes `transactions`, or undefined when the last is not one (or there is none). */
export function closingRemascTransaction<T extends RemascCandidate>(transactions: readonly T[]): T | undefined {
  const last = transactions.at(-1);
  return last !== undefined && isRemascTransaction(last) ? last : undefined;
}

/** The index of the first REMASC transaction before the last position, or undefined when there is none. */
export function misplacedRemascIndex(transactions: readonly RemascCandidate[]): number | undefined {
  const last = transactions.length - 1;
  const index = transactions.findIndex((tx, i) => i < last && isRemascTransaction(tx));
  return index < 0 ? undefined : index;
}
