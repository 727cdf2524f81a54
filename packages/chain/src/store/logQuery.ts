/**
 * `getLogs` over the canonical chain: one range scan of the `canonicalBloom` bucket, then receipts
 * and bodies only for the blocks whose bloom may match, then exact matching.
 */
import type {LogFilter, LogWithContext} from "../types.ts";
import {blockLogs} from "./blockLogs.ts";
import type {BlockStore} from "./blockStore.ts";
import type {CanonicalIndex} from "./canonicalIndex.ts";
import {CompiledLogFilter} from "./logFilter.ts";
import type {ReceiptStore} from "./receiptStore.ts";

/** What a log query reads. */
export interface LogQuerySources {
  blocks: BlockStore;
  receipts: ReceiptStore;
  canonical: CanonicalIndex;
}

/** Canonical logs matching `filter` between its blocks (inclusive, clamped to `headNumber`), in chain order. */
export async function queryLogs(
  sources: LogQuerySources,
  filter: LogFilter,
  headNumber: number,
): Promise<LogWithContext[]> {
  const from = Math.max(0, filter.fromBlock);
  const to = Math.min(filter.toBlock, headNumber);
  if (from > to) return [];
  const compiled = new CompiledLogFilter(filter);
  const candidates: number[] = [];
  for await (const [blockNumber, bloom] of sources.canonical.blooms(from, to)) {
    if (compiled.mayMatch(bloom)) candidates.push(blockNumber);
  }
  const result: LogWithContext[] = [];
  for (const blockNumber of candidates) {
    const hash = await sources.canonical.hashAt(blockNumber);
    const block = hash && (await sources.blocks.getBlock(hash));
    const receipts = hash && (await sources.receipts.get(hash));
    if (!block || !receipts) continue;
    for (const log of blockLogs(block, receipts, false)) {
      if (compiled.matches(log.log)) result.push(log);
    }
  }
  return result;
}
