/**
 * Wiring step 7, the metrics listener (docs/operations.md): the gauges read from the components
 * when scraped, next to the counted metrics the earlier steps subscribed, served with `/health`
 * and `/ready` on a port of their own.
 */
import {join} from "node:path";
import type {Chain} from "@xchain/chain";
import type {CallService} from "@xchain/execution";
import type {HealthProbe, RpcServer} from "@xchain/rpc";
import type {StateDatabase} from "@xchain/state";
import type {TxPool} from "@xchain/txpool";
import type {Logger} from "../logger.ts";
import {nodeCacheUsage} from "../memoryBudget.ts";
import {startMetricsServer} from "../metrics/metricsServer.ts";
import type {NodeMetrics} from "../metrics/nodeMetrics.ts";
import {registerScrapeGauges} from "../metrics/scrapeGauges.ts";
import type {NodeOptions} from "../options.ts";
import type {P2PStack} from "../p2pStack.ts";
import type {Closers} from "./closers.ts";
import {hostForUrl} from "./rpc.ts";
import type {Storage} from "./storage.ts";

/** What the gauges read. */
export interface MetricsComponents {
  storage: Storage;
  chain: Chain;
  txpool: TxPool;
  assemblerState: StateDatabase;
  p2p: P2PStack | undefined;
  rpc: RpcServer;
  calls: CallService;
  health: HealthProbe;
  logger: Logger;
}

/** Registers the scrape-time gauges and listens; returns the `/metrics` URL. */
export async function serveMetrics(
  opts: NodeOptions,
  metrics: NodeMetrics,
  components: MetricsComponents,
  closers: Closers,
): Promise<string> {
  const {storage, chain, txpool, assemblerState, p2p, rpc, calls, health, logger} = components;
  const {db, state} = storage;
  registerScrapeGauges(metrics.registry, {
    head: () => chain.head(),
    peers: p2p?.peers ?? {peerCount: () => 0},
    syncProgress: () => p2p?.syncProgress(),
    txpool,
    rpc,
    dbDir: join(opts.dataDir, "db"),
    caches: () => nodeCacheUsage(opts, {state, assemblerState, calls, chain, txpool, rpc, db}),
    workersHeapUsedBytes: () => calls.heapUsedBytes(),
    stateCollection: () => ({...chain.collectorStats(), oldestStateBlock: chain.oldestStateBlock()}),
    flatState: () => chain.flatStateStatus(),
    stateReads: () => {
      const main = state.readCounts();
      const workers = calls.stateReads();
      return {flat: main.flat + workers.flat, trie: main.trie + workers.trie};
    },
  });
  const listener = await startMetricsServer(opts.metrics, {
    registry: metrics.registry,
    health,
    logger: logger.child({module: "metrics"}),
  });
  closers.push({name: "metrics", close: () => listener.close()});
  return `http://${hostForUrl(opts.metrics.host)}:${listener.port}/metrics`;
}
