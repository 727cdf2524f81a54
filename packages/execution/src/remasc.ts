/**
 * The REMASC transaction that closes every block, with xchain's simplified payout
 * (docs/protocol/README.md §2): the fees of the matured block (`number − maturity`) go from the REMASC address to that
 * block's coinbase. As in rskj, its sender is the zero address, it must carry that account's
 * nonce (so nonce = number − 1), and it increments it; it costs nothing.
 */
import type {StateManagerInterface} from "@ethereumjs/common";
import {Account, Address} from "@ethereumjs/util";
import {REMASC_ADDRESS, REMASC_SENDER, type Transaction} from "@xchain/primitives";
import {
  BlockExecutionError,
  BlockExecutionErrorCode,
  TransactionInvalidCode,
  TransactionInvalidError,
} from "./errors.ts";
import type {RemascPayment} from "./tracing/types.ts";
import type {ExecutionChainView} from "./types.ts";

const SENDER = new Address(REMASC_SENDER);
const REMASC = new Address(REMASC_ADDRESS);

/**
 * The height of the block whose fees block `blockNumber`'s REMASC transaction pays out: `blockNumber −
 * maturity`, or undefined while there is none. On a fork (`forkNumber` = F) a matured block at or
 * below F pays nothing: the upstream settled its own fees with its own REMASC.
 */
export function maturedBlockNumber(blockNumber: number, maturity: number, forkNumber = -1): number | undefined {
  const matured = blockNumber - maturity;
  return matured > 0 && matured > forkNumber ? matured : undefined;
}

/** Applies the REMASC transaction `tx` (already known to be one) to `state`; the payout, if any. */
export async function applyRemascTransaction(
  state: StateManagerInterface,
  tx: Transaction,
  maturedBlock: ExecutionChainView["maturedBlock"],
): Promise<RemascPayment | undefined> {
  const sender = (await state.getAccount(SENDER)) ?? new Account();
  if (tx.nonce !== sender.nonce) {
    throw new TransactionInvalidError(
      {code: TransactionInvalidCode.NONCE_MISMATCH, expected: sender.nonce, actual: tx.nonce},
      `REMASC transaction nonce ${tx.nonce}, expected ${sender.nonce}`,
    );
  }
  sender.nonce += 1n;
  await state.putAccount(SENDER, sender);
  // rskj's zero-value transfer to REMASC creates its account if it is missing.
  const remasc = (await state.getAccount(REMASC)) ?? new Account();
  const fees = maturedBlock?.paidFees ?? 0n;
  if (remasc.balance < fees) {
    throw new BlockExecutionError(
      {code: BlockExecutionErrorCode.REMASC_UNDERFUNDED, balance: remasc.balance, paidFees: fees},
      `REMASC holds ${remasc.balance}, cannot pay the matured block's ${fees}`,
    );
  }
  remasc.balance -= fees;
  await state.putAccount(REMASC, remasc);
  if (maturedBlock === undefined || fees === 0n) return undefined;
  const coinbase = new Address(maturedBlock.coinbase);
  const miner = (await state.getAccount(coinbase)) ?? new Account();
  miner.balance += fees;
  await state.putAccount(coinbase, miner);
  return {from: REMASC_ADDRESS, to: maturedBlock.coinbase, value: fees};
}
