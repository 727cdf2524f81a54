import type {Transaction} from "@xchain/primitives";

/** Largest initcode a creation may carry (RSKIP-438, EIP-3860: 2 × 24,576). */
export const MAX_INITCODE_SIZE = 49_152;

const TX_GAS = 21_000n;
const TX_CREATE_GAS = 32_000n;
const ZERO_BYTE_GAS = 4n;
// RSKIP-400 (EIP-2028): 16 per non-zero calldata byte.
const NON_ZERO_BYTE_GAS = 16n;
const INITCODE_WORD_GAS = 2n;

/** What `intrinsicGas` reads of a transaction. */
export type IntrinsicGasInput = Pick<Transaction, "to" | "data">;

/**
 * rskj's `Transaction.transactionCost` (docs/protocol/gas.md §2): 21,000 (+32,000 for a creation), 4 per zero
 * and 16 per non-zero data byte, and for a creation 2 per 32-byte initcode word.
 */
export function intrinsicGas(tx: IntrinsicGasInput): bigint {
  let zeros = 0;
  for (const byte of tx.data) if (byte === 0) zeros++;
  const length = tx.data.length;
  let gas = TX_GAS + BigInt(zeros) * ZERO_BYTE_GAS + BigInt(length - zeros) * NON_ZERO_BYTE_GAS;
  if (tx.to === undefined) gas += TX_CREATE_GAS + BigInt(Math.ceil(length / 32)) * INITCODE_WORD_GAS;
  return gas;
}
