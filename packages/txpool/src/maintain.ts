/**
 * The pool's reaction to a new best block (reth's `maintain`): drop what the new chain included or
 * made stale, re-check the balances of the senders whose state changed, expire old queued
 * transactions, and admit again the transactions of blocks that left the canonical chain. An edit of
 * the head's state (dev controls, `stateEdited`) re-checks every sender against the edited state.
 */
import type {EventEmitter} from "node:events";
import type {ChainEvents, ChainHead, ChainReader, NewHeadEvent, StateEditedEvent} from "@xchain/chain";
import {isRemascTransaction} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import {admit} from "./admission.ts";
import type {PoolContext} from "./context.ts";
import {TxPoolError} from "./errors.ts";
import {type AccountSnapshot, HeadView} from "./headView.ts";
import type {SenderTransactions} from "./pool/senderTransactions.ts";

/** Subscribes to `newHead` and `stateEdited` and hands each event to its handler; `close()` unsubscribes. */
export class PoolMaintenance {
  constructor(
    private readonly events: EventEmitter<ChainEvents>,
    private readonly onNewHead: (event: NewHeadEvent) => void,
    private readonly onStateEdited: (event: StateEditedEvent) => void,
  ) {
    events.on("newHead", onNewHead);
    events.on("stateEdited", onStateEdited);
  }

  close(): void {
    this.events.off("newHead", this.onNewHead);
    this.events.off("stateEdited", this.onStateEdited);
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
  await rebase(ctx, chain, event.head, keys, included);
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

/**
 * Moves the pool onto the edited state of the same head (a dev control set a balance, a nonce, code…):
 * every sender is re-checked, as any account may have changed; a raised nonce makes transactions stale,
 * a lowered one or a larger balance can make queued ones pending.
 */
export function applyStateEdit(
  ctx: PoolContext,
  chain: Pick<ChainReader, "stateAt">,
  event: StateEditedEvent,
): Promise<void> {
  return rebase(ctx, chain, event.head, ctx.store.senderKeys(), new Set());
}

/**
 * Reads the accounts of the senders `keys` at `head`, then, synchronously, moves the pool to that head in one
 * step: each sender rebased on its nonce and balance (`included`: hashes the new blocks hold, counted apart from
 * the stale).
 */
async function rebase(
  ctx: PoolContext,
  chain: Pick<ChainReader, "stateAt">,
  head: ChainHead,
  keys: string[],
  included: ReadonlySet<string>,
): Promise<void> {
  const {store, stats} = ctx;
  const view = new HeadView(chain, head);
  const accounts = await Promise.all(
    keys.map((key) => view.account((store.sender(key) as SenderTransactions).address)),
  );
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
}
