/**
 * The metrics read from the components' state when scraped (docs/operations.md): head, peers, sync,
 * txpool, WebSocket, caches, database size and the call workers' heap.
 */
import type {ChainHead, CollectorStats} from "@xchain/chain";
import type {CallCacheStats, PeersInfo} from "@xchain/rpc";
import type {FlatStateStatus, StateReadCounts} from "@xchain/state";
import type {CacheUsage} from "@xchain/utils";
import {Counter, Gauge, type Registry} from "prom-client";
import {cached, directorySize} from "./dirSize.ts";

/** How long a measured database size is reused: walking LevelDB's files on every scrape is waste. */
const DB_SIZE_MAX_AGE_MS = 30_000;

/** What the scrape-time gauges read. */
export interface MetricsSources {
  head(): ChainHead;
  peers: Pick<PeersInfo, "peerCount">;
  /** Undefined when not syncing. */
  syncProgress(): {blocksPerSecond: number} | undefined;
  txpool: {status(): {pending: number; queued: number}};
  rpc: {
    readonly wsConnections: number;
    readonly subscriptionCount: number;
    callCacheStats(): CallCacheStats;
    blockCacheStats(): {bytes: number};
  };
  /** LevelDB's directory. */
  dbDir: string;
  /** Every cache's memory against its budget (docs/operations.md §8), one entry per cache name. */
  caches(): CacheUsage[];
  /** The V8 heap the call workers use (the default `nodejs_heap_*` metrics are the main thread's). */
  workersHeapUsedBytes(): number;
  /** The state collector's progress and the oldest block whose state is served (docs/operations.md §12). */
  stateCollection(): CollectorStats & {oldestStateBlock: number};
  /** The flat state's phase and progress (docs/operations.md §13); undefined when it is off. */
  flatState(): FlatStateStatus | undefined;
  /** How the state readers' cache misses were served (main thread and call workers): by the flat state or the trie. */
  stateReads(): StateReadCounts;
}

/** Registers in `registry` the metrics that read `sources` when scraped; `now` in milliseconds. */
export function registerScrapeGauges(registry: Registry, sources: MetricsSources, now: () => number = Date.now): void {
  const dbSize = cached(() => directorySize(sources.dbDir), DB_SIZE_MAX_AGE_MS, now);
  const specs: [string, string, () => number | Promise<number>][] = [
    ["xchain_head_block_number", "Number of the best block", () => sources.head().number],
    [
      "xchain_head_age_seconds",
      "Seconds since the best block's timestamp",
      () => now() / 1000 - sources.head().header.timestamp,
    ],
    [
      "xchain_head_total_difficulty",
      "Total difficulty of the best block (a float: precise to 53 bits)",
      () => Number(sources.head().totalDifficulty),
    ],
    ["xchain_peers", "Connected peers", () => sources.peers.peerCount()],
    ["xchain_syncing", "1 while a sync runs, else 0", () => (sources.syncProgress() ? 1 : 0)],
    [
      "xchain_sync_blocks_per_second",
      "Blocks a running sync imports per second (0 when not syncing)",
      () => sources.syncProgress()?.blocksPerSecond ?? 0,
    ],
    ["xchain_txpool_pending", "Transactions in the pool ready for a block", () => sources.txpool.status().pending],
    ["xchain_txpool_queued", "Transactions in the pool behind a nonce gap", () => sources.txpool.status().queued],
    ["xchain_ws_connections", "Open JSON-RPC WebSocket connections", () => sources.rpc.wsConnections],
    ["xchain_ws_subscriptions", "eth_subscribe subscriptions held", () => sources.rpc.subscriptionCount],
    ["xchain_call_cache_bytes", "Bytes the eth_call answer cache holds", () => sources.rpc.callCacheStats().bytes],
    ["xchain_block_cache_bytes", "Bytes the formatted-block cache holds", () => sources.rpc.blockCacheStats().bytes],
    [
      "xchain_db_size_bytes",
      `LevelDB's size on disk (measured at most every ${DB_SIZE_MAX_AGE_MS / 1000} s)`,
      () => dbSize(),
    ],
    [
      "xchain_call_workers_heap_used_bytes",
      "V8 heap the call worker threads use, summed (nodejs_heap_size_used_bytes is the main thread's)",
      () => sources.workersHeapUsedBytes(),
    ],
    [
      "xchain_state_oldest_block",
      "The oldest block whose state is served (docs/operations.md §12)",
      () => sources.stateCollection().oldestStateBlock,
    ],
    [
      "xchain_state_collection_phase",
      "The state collection's phase: 0 none running, 1 marking, 2 sweeping, 3 clearing its marks",
      () => sources.stateCollection().phase,
    ],
    [
      "xchain_state_collections",
      "State collections completed since the node started",
      () => sources.stateCollection().collections,
    ],
    [
      "xchain_state_collected_entries",
      "State entries (trie nodes and code) state collections deleted since the node started",
      () => sources.stateCollection().deletedKeys,
    ],
    [
      "xchain_state_collection_longest_step_seconds",
      "The longest a state collection's sweep step held block imports back, since the node started",
      () => sources.stateCollection().longestStepMs / 1000,
    ],
    [
      "xchain_flat_state_progress",
      "The flat state of the head (docs/operations.md §13): 1 complete and read first, below 1 the share generated so far, -1 off",
      () => sources.flatState()?.progress ?? -1,
    ],
  ];
  for (const [name, help, read] of specs) {
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(await read());
      },
    });
  }
  cacheGauges(registry, sources, now);
  // The eth_call answer cache counts its hits and misses itself: the counters take its totals.
  const callCache: [string, string, (s: CallCacheStats) => number][] = [
    ["xchain_call_cache_hits_total", "eth_call answers served from the answer cache", (s) => s.hits],
    ["xchain_call_cache_misses_total", "eth_call requests the answer cache did not hold", (s) => s.misses],
  ];
  new Counter({
    name: "xchain_state_reads_total",
    help: "Accounts and storage words the state readers (main thread and call workers) did not have cached, by how they were read: flat (the flat state) or trie (a walk)",
    labelNames: ["source"],
    registers: [registry],
    collect() {
      const counts = sources.stateReads();
      this.reset();
      this.inc({source: "flat"}, counts.flat);
      this.inc({source: "trie"}, counts.trie);
    },
  });
  for (const [name, help, read] of callCache) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read(sources.rpc.callCacheStats()));
      },
    });
  }
}

/** `xchain_cache_bytes` and `xchain_cache_budget_bytes`, by cache, read from one `caches()` per scrape. */
function cacheGauges(registry: Registry, sources: MetricsSources, now: () => number): void {
  let read: {at: number; caches: CacheUsage[]} | undefined;
  // Both gauges are collected in one scrape: the second reuses the first's reading.
  const caches = () => {
    const at = now();
    if (!read || read.at !== at) read = {at, caches: sources.caches()};
    return read.caches;
  };
  const gauge = (name: string, help: string, value: (c: CacheUsage) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["cache"],
      registers: [registry],
      collect() {
        this.reset();
        for (const c of caches()) this.set({cache: c.cache}, value(c));
      },
    });
  gauge("xchain_cache_bytes", "Estimated bytes a cache holds (docs/operations.md §8)", (c) => c.bytes);
  gauge("xchain_cache_budget_bytes", "The byte budget of a cache (docs/operations.md §8)", (c) => c.budgetBytes);
}
