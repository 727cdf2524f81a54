/**
 * The pool's reaction to a new best block (reth's `maintain`): drop what the new chain included or
 * made stale, re-check the balances of the senders whose state changed, expire old queued
 * transactions, and admit again the transactions of blocks that left the canonical chain.
 */
import type {EventEmitter} from "node:events";
import type {ChainEvents, ChainReader, NewHeadEvent} from "@xchain/chain";
import {isRemascTransaction} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import {admit} from "./admission.ts";
import type {PoolContext} from "./context.ts";
import {TxPoolError} from "./errors.ts";
import {type AccountSnapshot, HeadView} from "./headView.ts";
import type {SenderTransactions} from "./pool/senderTransactions.ts";

/** Subscribes to `newHead` and hands each event to `schedule`; `close()` unsubscribes. */
export class PoolMaintenance {
  private readonly listener: (event: NewHeadEvent) => void;

  constructor(
    private readonly events: EventEmitter<ChainEvents>,
    schedule: (event: NewHeadEvent) => void,
  ) {
    this.listener = schedule;
    events.on("newHead", this.listener);
  }

  close(): void {
    this.events.off("newHead", this.listener);
  }
}

/**
 * Moves the pool to `event.head`. Balances are re-checked lazily: only for senders with a
 * transaction in the added blocks (an account's balance falls only through its own
 * transactions), or for every sender after a reorganization (the removed blocks may have paid them).
 */
export async function applyNewHead(
  ctx: PoolContext,
  chain: Pick<ChainReader, "stateAt">,
  event: NewHeadEvent,
): Promise<void> {
  const {store, stats} = ctx;
  const included = new Set<string>();
  const touched = new Set<string>();
  for (const block of event.added) {
    for (const tx of block.transactions) {
      if (isRemascTransaction(tx)) continue;
      const hash = bytesToHex(tx.hash());
      if (store.get(hash)) included.add(hash);
      touched.add(bytesToHex(tx.sender()));
    }
  }
  const keys = store.senderKeys().filter((key) => event.removed.length > 0 || touched.has(key));
  const view = new HeadView(chain, event.head);
  const accounts = await Promise.all(
    keys.map((key) => view.account((store.sender(key) as SenderTransactions).address)),
  );

  // From here on, synchronously: the pool moves to the new head in one step.
  ctx.view = view;
  keys.forEach((key, i) => {
    const account = accounts[i] as AccountSnapshot;
    const outcome = store.rebase(key, account.nonce, account.balance);
    if (!outcome) return;
    for (const ptx of outcome.stale) {
      if (included.has(ptx.hash)) stats.included++;
      else stats.stale++;
    }
    stats.unaffordable += outcome.unaffordable.length;
    ctx.announce(outcome.promoted);
  });
  for (const ptx of store.queuedBefore(ctx.nowMs() - ctx.options.queuedLifetimeMs)) {
    store.delete(ptx);
    stats.expired++;
  }

  for (const tx of event.droppedTransactions) {
    try {
      await admit(ctx, tx);
      stats.readmitted++;
    } catch (e) {
      if (!(e instanceof TxPoolError)) throw e;
      stats.readmitRefused++;
    }
  }
}
