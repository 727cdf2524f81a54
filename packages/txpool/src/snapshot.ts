/**
 * A dev node's snapshots of the pool (`evm_snapshot`/`evm_revert`, docs/rpc.md §4.10): a snapshot is
 * the list of pooled transactions, in arrival order (O(pool), nothing of the state). Restoring it
 * empties the pool and admits them again, in that order, against the head the chain has then: the
 * snapshot's own head once the revert moved it back, so they are admitted as they were. Transactions
 * that arrived after the snapshot are dropped; one the restored state refuses is dropped too.
 */
import type {ChainReader} from "@xchain/chain";
import {admit} from "./admission.ts";
import type {PoolContext} from "./context.ts";
import {HeadView} from "./headView.ts";
import type {TxPoolSnapshot} from "./types.ts";

/** The pool's transactions now, in arrival order. */
export function takeSnapshot(ctx: PoolContext): TxPoolSnapshot {
  const pooled = [...ctx.store.senders()].flatMap((sender) => [...sender.pending(), ...sender.queued()]);
  return {transactions: pooled.sort((a, b) => a.sequence - b.sequence).map((ptx) => ptx.tx)};
}

/**
 * Replaces the pool's transactions with the snapshot's, admitted again at the chain's head (read
 * afresh: a revert may restore another state at the same head); returns how many were admitted.
 * Run it in the pool's queue.
 */
export async function restoreSnapshot(
  ctx: PoolContext,
  chain: Pick<ChainReader, "head" | "stateAt">,
  snapshot: TxPoolSnapshot,
): Promise<number> {
  ctx.store.clear();
  ctx.view = new HeadView(chain, chain.head());
  let admitted = 0;
  for (const tx of snapshot.transactions) {
    try {
      // Admitted once already: an impersonated one comes back even if its sender is no longer impersonated.
      await admit(ctx, tx, true);
      admitted++;
    } catch {
      // Refused by the state it comes back to (the snapshot saw it admitted): dropped, as a later one is.
    }
  }
  return admitted;
}
