/**
 * Re-anchoring a forked chain on another fork block (`Chain.reanchor`: anvil_reset with `forking`,
 * docs/forking.md §3.2): the old local chain leaves the canonical index and the new anchor becomes
 * the head, in one batch; the event lists the old local blocks as removed, as a reorganization does.
 */
import type {WriteBatch} from "@xchain/db";
import type {BlockHeader} from "@xchain/primitives";
import {findHeadMove, newHeadEvent} from "../import/headChange.ts";
import type {ChainStore} from "../store/chainStore.ts";
import type {StateOverrides} from "../store/stateOverrides.ts";
import type {ChainHead, NewHeadEvent} from "../types.ts";
import type {ForkAnchor} from "./anchor.ts";
import {writeForkAnchor} from "./initializeForkStore.ts";

/** The new head (the anchor) and the event of the move. */
export interface Reanchoring {
  head: ChainHead;
  event: NewHeadEvent;
}

/**
 * Adds to `batch` the move from the chain on `oldAnchor` (head `current`) to `anchor`: the canonical
 * heights of the old chain from its anchor to its head (but F′, which the new anchor takes) and the
 * locations of its transactions are deleted, then the new anchor is written as the head
 * (`writeForkAnchor`). Old blocks, headers and state stay stored (nothing is pruned), out of the
 * canonical index. The event's `droppedTransactions` is empty: the old chain's transactions are
 * discarded, as after `setHead` (they were signed against another upstream state).
 */
export async function reanchorWrites(
  batch: WriteBatch,
  store: ChainStore,
  overrides: StateOverrides,
  move: {oldAnchor: BlockHeader; current: ChainHead; anchor: ForkAnchor},
): Promise<Reanchoring> {
  const {oldAnchor, current, anchor} = move;
  // The old anchor is the old head's canonical ancestor: the walk lists exactly the local blocks.
  const change = await findHeadMove(store, oldAnchor, current.header);
  for (const {block} of change.removed) {
    for (const tx of block.transactions) store.canonical.deleteTransaction(batch, tx.hash());
  }
  for (let n = oldAnchor.number; n <= current.number; n++) {
    if (n !== anchor.number) store.canonical.deleteHeight(batch, n);
  }
  const head = writeForkAnchor(batch, store, overrides, anchor);
  return {head, event: {...newHeadEvent(head, change), droppedTransactions: []}};
}
