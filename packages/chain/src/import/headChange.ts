/**
 * A new best block and the canonical switch it causes (docs/protocol/consensus.md §2): the blocks between the
 * old and the new head's common ancestor, the index writes that switch them, and the `newHead` event.
 */
import type {WriteBatch} from "@xchain/db";
import {type Block, type BlockHeader, isRemascTransaction, type Receipt} from "@xchain/primitives";
import {bytesToHex, bytesToPrefixedHex, equalBytes} from "@xchain/utils";
import {ChainError, ChainErrorCode} from "../errors.ts";
import {blockLogs} from "../store/blockLogs.ts";
import type {ChainStore} from "../store/chainStore.ts";
import type {ChainHead, NewHeadEvent} from "../types.ts";

/** A block with its receipts. */
export interface BlockWithReceipts {
  block: Block;
  receipts: readonly Receipt[];
}

/** The canonical blocks that change when the head moves. */
export interface HeadChange {
  /**
   * Joining the canonical chain, oldest first; the new head last (none when `setHead` moves back to a
   * canonical block).
   */
  added: BlockWithReceipts[];
  /** Leaving it, newest first (the old head first); empty when the new head extends the old one. */
  removed: BlockWithReceipts[];
}

/** Walks back from the new head's parent and the old head to their common ancestor. */
export async function findHeadChange(
  store: ChainStore,
  newHead: BlockWithReceipts,
  oldHead: BlockHeader,
): Promise<HeadChange> {
  const change: HeadChange = {added: [newHead], removed: []};
  await walkToCommonAncestor(store, change, await requireHeader(store, newHead.block.header.parentHash), oldHead);
  return change;
}

/**
 * The change that makes the stored block `target` the head (`setHead`): walks back from it and
 * from the old head to their common ancestor. `added` is empty when `target` is canonical.
 */
export async function findHeadMove(store: ChainStore, target: BlockHeader, oldHead: BlockHeader): Promise<HeadChange> {
  const change: HeadChange = {added: [], removed: []};
  await walkToCommonAncestor(store, change, target, oldHead);
  return change;
}

/** Prepends the blocks from `newSide` and appends those from `oldSide` down to their common ancestor. */
async function walkToCommonAncestor(
  store: ChainStore,
  {added, removed}: HeadChange,
  newSide: BlockHeader,
  oldSide: BlockHeader,
): Promise<void> {
  while (newSide.number > oldSide.number) {
    added.unshift(await load(store, newSide));
    newSide = await requireHeader(store, newSide.parentHash);
  }
  while (oldSide.number > newSide.number) {
    removed.push(await load(store, oldSide));
    oldSide = await requireHeader(store, oldSide.parentHash);
  }
  while (!equalBytes(newSide.hash(), oldSide.hash())) {
    added.unshift(await load(store, newSide));
    removed.push(await load(store, oldSide));
    newSide = await requireHeader(store, newSide.parentHash);
    oldSide = await requireHeader(store, oldSide.parentHash);
  }
}

/**
 * Adds the index writes of the switch to `batch`: canonical hash and bloom of every added height,
 * locations of the added transactions, deletion of the locations of removed transactions that
 * are not re-added, and of the heights above the new head; then the head pointer.
 */
export function writeHeadChange(
  batch: WriteBatch,
  store: ChainStore,
  change: HeadChange,
  oldHeadNumber: number,
  newHead: BlockHeader,
): void {
  const addedTxs = new Set(change.added.flatMap(({block}) => block.transactions.map((tx) => bytesToHex(tx.hash()))));
  for (const {block} of change.removed) {
    for (const tx of block.transactions) {
      if (!addedTxs.has(bytesToHex(tx.hash()))) store.canonical.deleteTransaction(batch, tx.hash());
    }
  }
  for (const {block} of change.added) store.canonical.putBlock(batch, block);
  for (let n = newHead.number + 1; n <= oldHeadNumber; n++) store.canonical.deleteHeight(batch, n);
  store.meta.putHead(batch, newHead.hash());
}

/**
 * The event of the switch: logs in chain order (removed ones marked), and the transactions that
 * left the canonical chain for good (REMASC ones excluded: no pool can take them back).
 */
export function newHeadEvent(head: ChainHead, change: HeadChange): NewHeadEvent {
  const removedOldestFirst = [...change.removed].reverse();
  const addedTxs = new Set(change.added.flatMap(({block}) => block.transactions.map((tx) => bytesToHex(tx.hash()))));
  return {
    head,
    added: change.added.map(({block}) => block),
    removed: change.removed.map(({block}) => block),
    removedLogs: removedOldestFirst.flatMap(({block, receipts}) => blockLogs(block, receipts, true)),
    addedLogs: change.added.flatMap(({block, receipts}) => blockLogs(block, receipts, false)),
    droppedTransactions: removedOldestFirst.flatMap(({block}) =>
      block.transactions.filter((tx) => !isRemascTransaction(tx) && !addedTxs.has(bytesToHex(tx.hash()))),
    ),
  };
}

async function requireHeader(store: ChainStore, hash: Uint8Array): Promise<BlockHeader> {
  const header = await store.blocks.getHeader(hash);
  if (!header) throw missing(hash, "parent");
  return header;
}

async function load(store: ChainStore, header: BlockHeader): Promise<BlockWithReceipts> {
  const hash = header.hash();
  const block = await store.blocks.getBlock(hash);
  const receipts = await store.receipts.get(hash);
  if (!block) throw missing(hash, "body");
  if (!receipts) throw missing(hash, "receipts");
  return {block, receipts};
}

function missing(hash: Uint8Array, what: "parent" | "body" | "receipts"): ChainError {
  const hex = bytesToPrefixedHex(hash);
  return new ChainError(
    {code: ChainErrorCode.MISSING_DATA, hash: hex, missing: what},
    `block ${hex}: ${what} not stored`,
  );
}
