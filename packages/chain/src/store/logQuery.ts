/**
 * `getLogs` over the canonical chain: one range scan of the `canonicalBloom` bucket, then receipts
 * and bodies only for the blocks whose bloom may match, then exact matching.
 */
import type {LogFilter, LogWithContext} from "../types.ts";
import {blockLogs} from "./blockLogs.ts";
import type {BlockLogsCache} from "./blockLogsCache.ts";
import type {BlockStore} from "./blockStore.ts";
import type {CanonicalIndex} from "./canonicalIndex.ts";
import {CompiledLogFilter} from "./logFilter.ts";
import type {ReceiptStore} from "./receiptStore.ts";

/** What a log query reads. */
export interface LogQuerySources {
  blocks: BlockStore;
  receipts: ReceiptStore;
  canonical: CanonicalIndex;
  logs: BlockLogsCache;
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
    if (!hash) continue;
    const logs = await sources.logs.get(hash, async () => {
      const block = await sources.blocks.getBlock(hash);
      const receipts = await sources.receipts.get(hash);
      return block && receipts && blockLogs(block, receipts, false);
    });
    for (const log of logs ?? []) {
      if (compiled.matches(log.log)) result.push(log);
    }
  }
  return result;
}
