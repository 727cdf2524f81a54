/**
 * Moving the head to a stored block without importing anything (the miner's `evm_revert` and
 * `evm_reset` on regtest): the canonical index is rewritten in one batch, as a reorganization
 * would, and the `newHead` event lists the blocks that left the canonical chain. The batch may
 * carry the target's restored dev state override too (`Chain.setHead`).
 */
import type {WriteBatch} from "@xchain/db";
import {bytesToPrefixedHex, equalBytes} from "@xchain/utils";
import {ChainError, ChainErrorCode} from "./errors.ts";
import {findHeadMove, newHeadEvent, writeHeadChange} from "./import/headChange.ts";
import type {ChainStore} from "./store/chainStore.ts";
import type {ChainHead, NewHeadEvent} from "./types.ts";

/** The new head and its event, or undefined when `hash` already is the head. */
export interface HeadMove {
  head: ChainHead;
  event: NewHeadEvent;
}

/**
 * Adds to `batch` what makes the stored block `hash` the head (the caller writes it); throws
 * CHAIN_UNKNOWN_BLOCK when it is not stored. The blocks above it stay stored (a later import can
 * make them canonical again). The event's `droppedTransactions` is empty: the head was set, not
 * out-competed, so the transactions of the removed blocks are discarded rather than offered back to
 * the txpool (rskj's evm_revert).
 */
export async function setHead(
  store: ChainStore,
  hash: Uint8Array,
  current: ChainHead,
  batch: WriteBatch,
): Promise<HeadMove | undefined> {
  if (equalBytes(hash, current.hash)) return undefined;
  const header = await store.blocks.getHeader(hash);
  const totalDifficulty = header && (await store.totalDifficulty.get(hash));
  if (!header || totalDifficulty === undefined) {
    const hex = bytesToPrefixedHex(hash);
    throw new ChainError({code: ChainErrorCode.UNKNOWN_BLOCK, hash: hex}, `block ${hex} is not stored`);
  }
  const change = await findHeadMove(store, header, current.header);
  writeHeadChange(batch, store, change, current.number, header);
  const head: ChainHead = {header, hash, number: header.number, totalDifficulty};
  return {head, event: {...newHeadEvent(head, change), droppedTransactions: []}};
}
