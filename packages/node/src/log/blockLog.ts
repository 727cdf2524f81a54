/**
 * What a person reads about the chain: one info line per new block (number, short hash, user
 * transactions, gas used, age of its timestamp, import time; at debug for a block without user
 * transactions when `quietEmptyBlocks`), a warning for a reorganization with
 * its depth, and an info line when `evm_revert`/`evm_reset` move the head back.
 *
 * The rule for sync: a block gets its own line when no sync is running and its timestamp is at
 * most `SUMMARY_AGE_MS` old; otherwise it is counted, and every `SUMMARY_INTERVAL_MS` one summary
 * line says how many blocks came in, the head, blocks/s, transactions/s and how far the node is
 * behind its peers. A node that follows the network thus prints one line per block, and a node
 * catching up prints a line every few seconds.
 */
import type {NewHeadEvent} from "@xchain/chain";
import {type Block, isRemascTransaction} from "@xchain/primitives";
import type {Logger} from "@xchain/utils";
import {formatCount, formatDuration, shortHash} from "./format.ts";

/** A block older than this (by its timestamp) is counted in the summary instead of getting its own line. */
export const SUMMARY_AGE_MS = 60_000;
/** How often the summary is written while blocks are being counted. */
export const SUMMARY_INTERVAL_MS = 8_000;

/** What the block log reads besides the events. */
export interface BlockLogModules {
  logger: Logger;
  /** The best block the peers announce while a sync runs; undefined when the node is not syncing. */
  syncTarget(): number | undefined;
  /** Milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /** Write the line of a block without user transactions at debug (where transactions have lines of their own). */
  quietEmptyBlocks?: boolean;
}

/** The transactions of a block a user sent (the REMASC transaction every block ends with is left out). */
export function userTransactionCount(block: Block): number {
  return block.transactions.filter((tx) => !isRemascTransaction(tx)).length;
}

/** The line of one block: `block 12 0x1a2b3c4d…9f8e: 3 txs, 63,000 gas, 1.2 s old, imported in 4 ms`. */
export function formatBlockLine(block: Block, nowMs: number, importMs?: number): string {
  const {number, gasUsed, timestamp} = block.header;
  const txs = userTransactionCount(block);
  const took = importMs === undefined ? "" : `, imported in ${formatDuration(importMs)}`;
  return (
    `block ${number} ${shortHash(block.hash())}: ${txs} tx${txs === 1 ? "" : "s"}, ${formatCount(gasUsed)} gas, ` +
    `${formatDuration(nowMs - timestamp * 1000)} old${took}`
  );
}

/** Logs new heads from `newHead` events; `close` stops its summary timer. */
export class BlockLog {
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout;
  /** The blocks counted since the last summary (`since`: when that was, or when the log started). */
  private counted: {blocks: number; txs: number; since: number; head?: Block};

  constructor(private readonly modules: BlockLogModules) {
    this.now = modules.now ?? Date.now;
    this.counted = {blocks: 0, txs: 0, since: this.now()};
    this.timer = setInterval(() => this.flush(), SUMMARY_INTERVAL_MS);
    this.timer.unref();
  }

  /** The `newHead` listener. */
  readonly onNewHead = (event: NewHeadEvent): void => {
    const {logger} = this.modules;
    const {head, added, removed, importMs} = event;
    if (importMs === undefined) {
      logger.info({number: head.number, removed: removed.length}, `head moved back to block ${head.number}`);
      return;
    }
    if (removed.length > 0) {
      logger.warn(
        {number: head.number, depth: removed.length, added: added.length},
        `reorganization of depth ${removed.length}: ${removed.length} blocks replaced by ${added.length}, head block ${head.number}`,
      );
    }
    const now = this.now();
    const syncing = this.modules.syncTarget() !== undefined;
    for (const block of added) {
      const last = block === added[added.length - 1];
      if (syncing || now - block.header.timestamp * 1000 > SUMMARY_AGE_MS) {
        this.count(block);
        continue;
      }
      const txs = userTransactionCount(block);
      const level = txs === 0 && this.modules.quietEmptyBlocks ? "debug" : "info";
      logger[level](
        {
          number: block.header.number,
          hash: shortHash(block.hash()),
          txs,
          gasUsed: Number(block.header.gasUsed),
          ageMs: now - block.header.timestamp * 1000,
          importMs: last ? Math.round(importMs) : undefined,
        },
        formatBlockLine(block, now, last ? importMs : undefined),
      );
    }
  };

  /** Writes the summary of the blocks counted since the last one (nothing when none were). */
  flush(): void {
    const {blocks, txs, since, head} = this.counted;
    const now = this.now();
    this.counted = {blocks: 0, txs: 0, since: now};
    if (blocks === 0 || !head) return;
    const seconds = Math.max((now - since) / 1000, 0.001);
    const target = this.modules.syncTarget();
    const behind = target === undefined ? 0 : Math.max(0, target - head.header.number);
    this.modules.logger.info(
      {blocks, txs, head: head.header.number, blocksPerSecond: blocks / seconds, txsPerSecond: txs / seconds, behind},
      `imported ${formatCount(blocks)} blocks in ${seconds.toFixed(1)} s (${(blocks / seconds).toFixed(1)} blocks/s, ` +
        `${(txs / seconds).toFixed(1)} txs/s), head block ${head.header.number} ${shortHash(head.hash())}` +
        (behind > 0 ? `, behind by ~${formatCount(behind)} blocks` : ""),
    );
  }

  /** Stops the summary timer after writing what was counted. */
  close(): void {
    clearInterval(this.timer);
    this.flush();
  }

  private count(block: Block): void {
    this.counted.blocks += 1;
    this.counted.txs += userTransactionCount(block);
    this.counted.head = block;
  }
}
