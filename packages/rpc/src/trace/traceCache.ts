/**
 * The flat traces of recently traced whole blocks, by block hash, least recently used dropped first
 * (docs/protocol/traces.md §7). A hash names one block and its ancestry, so an entry never goes stale.
 */
import {toData} from "@xchain/utils";
import type {TransactionTraces} from "./blockTraces.ts";

/** Blocks kept: enough for an indexer walking the chain and a few explorers on recent blocks. */
export const TRACE_CACHE_BLOCKS = 32;

/** An LRU of block traces shared by trace_block, trace_filter and trace_transaction. */
export class TraceCache {
  private readonly blocks = new Map<string, TransactionTraces[]>();

  constructor(private readonly capacity = TRACE_CACHE_BLOCKS) {}

  /** The block's traces, now the most recently used; undefined when not kept. */
  get(blockHash: Uint8Array): TransactionTraces[] | undefined {
    const key = toData(blockHash);
    const traces = this.blocks.get(key);
    if (traces !== undefined) {
      this.blocks.delete(key);
      this.blocks.set(key, traces);
    }
    return traces;
  }

  /** Keeps a whole block's traces, dropping the least recently used block beyond the capacity. */
  set(blockHash: Uint8Array, traces: TransactionTraces[]): void {
    const key = toData(blockHash);
    this.blocks.delete(key);
    this.blocks.set(key, traces);
    if (this.blocks.size > this.capacity) this.blocks.delete(this.blocks.keys().next().value as string);
  }
}
