/**
 * The REMASC transaction that closes every block, as rskj runs it (`TransactionExecutor` with
 * `RemascContract.processMinersFees`; docs/protocol/native-contracts.md §11.3): unsigned, from the
 * zero address with its nonce (so nonce = number − 1), zero gas and value; it pays the matured fees
 * with one `mining_fee` log per payment and saves REMASC's storage. It costs nothing, so its receipt
 * has gasUsed 0 and status 1.
 */
import type {StateManagerInterface} from "@ethereumjs/common";
import {Account, Address} from "@ethereumjs/util";
import type {Chainspec} from "@xchain/chainspec";
import {type Log, REMASC_ADDRESS, REMASC_SENDER, type Transaction} from "@xchain/primitives";
import {
  BlockExecutionError,
  BlockExecutionErrorCode,
  TransactionInvalidCode,
  TransactionInvalidError,
} from "../../errors.ts";
import type {RemascPayment} from "../../tracing/types.ts";
import type {RemascAncestry} from "./ancestry.ts";
import {miningFeeLog} from "./logs.ts";
import {processMinersFees, type RemascBlock} from "./payout.ts";
import {RemascStorage} from "./storage.ts";

const SENDER = new Address(REMASC_SENDER);
const REMASC = new Address(REMASC_ADDRESS);

/** What the REMASC transaction did: its receipt's logs and the payments (each a trace sub-call). */
export interface RemascOutcome {
  logs: Log[];
  payments: RemascPayment[];
}

/** Applies the REMASC transaction `tx` (already known to be one) of `block` to `state`. */
export async function applyRemascTransaction(
  state: StateManagerInterface,
  tx: Transaction,
  chainspec: Chainspec,
  block: RemascBlock,
  ancestry: RemascAncestry | undefined,
): Promise<RemascOutcome> {
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
  if ((await state.getAccount(REMASC)) === undefined) await state.putAccount(REMASC, new Account());

  const storage = await RemascStorage.load(state, REMASC);
  const payouts = processMinersFees(chainspec, block, ancestry, storage);
  const logs: Log[] = [];
  const payments: RemascPayment[] = [];
  for (const {to, value, blockHash} of payouts) {
    await transfer(state, to, value);
    logs.push(miningFeeLog(blockHash, to, value));
    payments.push({from: REMASC_ADDRESS, to, value});
  }
  await storage.save(state, REMASC);
  return {logs, payments};
}

/** Moves `value` from REMASC to `to`, creating `to` even for 0 as rskj's `addBalance` does. */
async function transfer(state: StateManagerInterface, to: Uint8Array, value: bigint): Promise<void> {
  const remasc = (await state.getAccount(REMASC)) ?? new Account();
  if (remasc.balance < value) {
    throw new BlockExecutionError(
      {code: BlockExecutionErrorCode.REMASC_UNDERFUNDED, balance: remasc.balance, payment: value},
      `REMASC holds ${remasc.balance}, cannot pay ${value}`,
    );
  }
  remasc.balance -= value;
  await state.putAccount(REMASC, remasc);
  const address = new Address(to);
  const recipient = (await state.getAccount(address)) ?? new Account();
  recipient.balance += value;
  await state.putAccount(address, recipient);
}
