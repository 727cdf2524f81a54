/**
 * The node's Prometheus metrics (docs/operations.md lists them). Most are gauges read from the
 * components' state when scraped (head, peers, sync, txpool, WebSocket, database size); only block
 * imports, reorganizations, RPC requests and merged-mining work are counted as they happen.
 */
import {type ChainHead, type ImportResult, ImportResultKind, type NewHeadEvent} from "@xchain/chain";
import type {MinerApi} from "@xchain/miner";
import type {CallCacheStats, PeersInfo, RpcObserver} from "@xchain/rpc";
import type {CacheUsage} from "@xchain/utils";
import {Counter, collectDefaultMetrics, Gauge, Histogram, Registry} from "prom-client";
import {cached, directorySize} from "./dirSize.ts";
import {createMiningMetrics} from "./miningMetrics.ts";
import {createRpcMetrics} from "./rpcMetrics.ts";

/** How long a measured database size is reused: walking LevelDB's files on every scrape is waste. */
const DB_SIZE_MAX_AGE_MS = 30_000;

/** What the scrape-time gauges read; given once the components exist (`attach`). */
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
}

/** Import time buckets, in seconds. */
const IMPORT_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Reorganization depth buckets, in blocks left the canonical chain. */
const REORG_BUCKETS = [1, 2, 3, 5, 10, 20, 50, 100, 1000];

/** The registry and the hooks that feed it. */
export class NodeMetrics {
  readonly registry = new Registry();
  /** The RPC server's observer. */
  readonly rpcObserver: RpcObserver;
  /** Wraps the miner the RPC server is given, so that external work and submissions count. */
  readonly observeMining: (miner: MinerApi) => MinerApi;
  private sources: MetricsSources | undefined;
  private readonly importsCounter: Counter;
  private readonly importTime: Histogram;
  private readonly reorgs: Counter;
  private readonly reorgDepth: Histogram;

  constructor(private readonly now: () => number = Date.now) {
    const registers = [this.registry];
    collectDefaultMetrics({register: this.registry});
    this.rpcObserver = createRpcMetrics(this.registry);
    this.observeMining = createMiningMetrics(this.registry);
    this.importsCounter = new Counter({
      name: "xchain_blocks_imported_total",
      help: "Blocks imported (best or not), from peers, the miner and RPC",
      registers,
    });
    this.importTime = new Histogram({
      name: "xchain_block_import_duration_seconds",
      help: "Time to validate, execute and store an imported block",
      buckets: IMPORT_BUCKETS,
      registers,
    });
    this.reorgs = new Counter({
      name: "xchain_reorgs_total",
      help: "Reorganizations: new heads that took blocks off the canonical chain",
      registers,
    });
    this.reorgDepth = new Histogram({
      name: "xchain_reorg_depth_blocks",
      help: "Blocks a reorganization took off the canonical chain",
      buckets: REORG_BUCKETS,
      registers,
    });
    this.scrapeGauges();
  }

  /** The chain's `onImport` hook. */
  readonly onImport = (result: ImportResult, durationMs: number): void => {
    if (result.kind !== ImportResultKind.IMPORTED_BEST && result.kind !== ImportResultKind.IMPORTED_NOT_BEST) return;
    this.importsCounter.inc();
    this.importTime.observe(durationMs / 1000);
  };

  /** The chain's `newHead` listener. */
  readonly onNewHead = ({removed}: NewHeadEvent): void => {
    if (removed.length === 0) return;
    this.reorgs.inc();
    this.reorgDepth.observe(removed.length);
  };

  /** Gives the scrape-time gauges their sources; until then they report nothing. */
  attach(sources: MetricsSources): void {
    this.sources = sources;
  }

  /** `xchain_cache_bytes` and `xchain_cache_budget_bytes`, by cache, read from one `caches()` per scrape. */
  private cacheGauges(): void {
    let read: {at: number; caches: CacheUsage[]} | undefined;
    // Both gauges are collected in one scrape: the second reuses the first's reading.
    const caches = () => {
      const at = this.now();
      if (!read || read.at !== at) read = {at, caches: this.sources?.caches() ?? []};
      return read.caches;
    };
    const gauge = (name: string, help: string, value: (c: CacheUsage) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ["cache"],
        registers: [this.registry],
        collect() {
          this.reset();
          for (const c of caches()) this.set({cache: c.cache}, value(c));
        },
      });
    gauge("xchain_cache_bytes", "Estimated bytes a cache holds (docs/operations.md §8)", (c) => c.bytes);
    gauge("xchain_cache_budget_bytes", "The byte budget of a cache (docs/operations.md §8)", (c) => c.budgetBytes);
  }

  private scrapeGauges(): void {
    const node = this;
    const dbSize = cached(() => directorySize(this.sources?.dbDir ?? "."), DB_SIZE_MAX_AGE_MS, this.now);
    const specs: [string, string, (s: MetricsSources) => number | Promise<number>][] = [
      ["xchain_head_block_number", "Number of the best block", (s) => s.head().number],
      [
        "xchain_head_age_seconds",
        "Seconds since the best block's timestamp",
        (s) => this.now() / 1000 - s.head().header.timestamp,
      ],
      [
        "xchain_head_total_difficulty",
        "Total difficulty of the best block (a float: precise to 53 bits)",
        (s) => Number(s.head().totalDifficulty),
      ],
      ["xchain_peers", "Connected peers", (s) => s.peers.peerCount()],
      ["xchain_syncing", "1 while a sync runs, else 0", (s) => (s.syncProgress() ? 1 : 0)],
      [
        "xchain_sync_blocks_per_second",
        "Blocks a running sync imports per second (0 when not syncing)",
        (s) => s.syncProgress()?.blocksPerSecond ?? 0,
      ],
      ["xchain_txpool_pending", "Transactions in the pool ready for a block", (s) => s.txpool.status().pending],
      ["xchain_txpool_queued", "Transactions in the pool behind a nonce gap", (s) => s.txpool.status().queued],
      ["xchain_ws_connections", "Open JSON-RPC WebSocket connections", (s) => s.rpc.wsConnections],
      ["xchain_ws_subscriptions", "eth_subscribe subscriptions held", (s) => s.rpc.subscriptionCount],
      ["xchain_call_cache_bytes", "Bytes the eth_call answer cache holds", (s) => s.rpc.callCacheStats().bytes],
      ["xchain_block_cache_bytes", "Bytes the formatted-block cache holds", (s) => s.rpc.blockCacheStats().bytes],
      [
        "xchain_db_size_bytes",
        `LevelDB's size on disk (measured at most every ${DB_SIZE_MAX_AGE_MS / 1000} s)`,
        () => dbSize(),
      ],
    ];
    for (const [name, help, read] of specs) {
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          if (node.sources) this.set(await read(node.sources));
        },
      });
    }
    new Gauge({
      name: "xchain_call_workers_heap_used_bytes",
      help: "V8 heap the call worker threads use, summed (nodejs_heap_size_used_bytes is the main thread's)",
      registers: [this.registry],
      collect() {
        if (node.sources) this.set(node.sources.workersHeapUsedBytes());
      },
    });
    this.cacheGauges();
    // The eth_call answer cache counts its hits and misses itself: the counters take its totals.
    const callCache: [string, string, (s: CallCacheStats) => number][] = [
      ["xchain_call_cache_hits_total", "eth_call answers served from the answer cache", (s) => s.hits],
      ["xchain_call_cache_misses_total", "eth_call requests the answer cache did not hold", (s) => s.misses],
    ];
    for (const [name, help, read] of callCache) {
      new Counter({
        name,
        help,
        registers: [this.registry],
        collect() {
          if (!node.sources) return;
          this.reset();
          this.inc(read(node.sources.rpc.callCacheStats()));
        },
      });
    }
  }
}
