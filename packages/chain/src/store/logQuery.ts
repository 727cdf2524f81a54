/**
 * `getLogs` over the canonical chain: one range scan of the `canonicalBloom` bucket, then receipts
 * and bodies only for the blocks whose bloom may match, then exact matching. Both loops stop once
 * the caller's signal is aborted and let the event loop run every few milliseconds, so a long scan
 * neither outlives its request nor holds up the node.
 */
import {setImmediate} from "node:timers/promises";
import type {LogFilter, LogQueryControl, LogWithContext} from "../types.ts";
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

/** How long a scan runs before it lets the event loop serve others. */
const SLICE_MS = 2;

/**
 * Canonical logs matching `filter` between its blocks (inclusive, clamped to `headNumber`), in chain
 * order; `control` can stop it (see `LogQueryControl`).
 */
export async function queryLogs(
  sources: LogQuerySources,
  filter: LogFilter,
  headNumber: number,
  {signal, onLog}: LogQueryControl = {},
): Promise<LogWithContext[]> {
  const from = Math.max(0, filter.fromBlock);
  const to = Math.min(filter.toBlock, headNumber);
  if (from > to) return [];
  const compiled = new CompiledLogFilter(filter);
  let sliceStart = performance.now();
  const checkpoint = async () => {
    signal?.throwIfAborted();
    if (performance.now() - sliceStart < SLICE_MS) return;
    await setImmediate();
    sliceStart = performance.now();
    signal?.throwIfAborted();
  };
  const candidates: number[] = [];
  for await (const [blockNumber, bloom] of sources.canonical.blooms(from, to)) {
    await checkpoint();
    if (compiled.mayMatch(bloom)) candidates.push(blockNumber);
  }
  const result: LogWithContext[] = [];
  for (const blockNumber of candidates) {
    await checkpoint();
    const hash = await sources.canonical.hashAt(blockNumber);
    if (!hash) continue;
    const logs = await sources.logs.get(hash, async () => {
      const block = await sources.blocks.getBlock(hash);
      const receipts = await sources.receipts.get(hash);
      return block && receipts && blockLogs(block, receipts, false);
    });
    for (const log of logs ?? []) {
      if (!compiled.matches(log.log)) continue;
      onLog?.(log);
      result.push(log);
    }
  }
  return result;
}
