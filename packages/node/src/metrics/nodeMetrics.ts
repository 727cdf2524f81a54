/**
 * The node's Prometheus metrics (docs/operations.md lists them). Block imports, reorganizations,
 * RPC requests, merged-mining work and sync runs are counted as they happen, by listeners of the
 * chain's, the RPC server's, the miner's and the sync manager's events; the rest are read from the components when scraped
 * (`registerScrapeGauges`, once the components exist).
 */
import type {ChainEvents} from "@xchain/chain";
import type {MinerEvents} from "@xchain/miner";
import type {RpcEvents} from "@xchain/rpc";
import type {SyncEvents} from "@xchain/sync";
import type {EventListeners} from "@xchain/utils";
import {collectDefaultMetrics, Registry} from "prom-client";
import {createChainMetrics} from "./chainMetrics.ts";
import {createMiningMetrics} from "./miningMetrics.ts";
import {createRpcMetrics} from "./rpcMetrics.ts";
import {createSyncMetrics} from "./syncMetrics.ts";

/** The registry and the listeners that feed its counted metrics. */
export interface NodeMetrics {
  registry: Registry;
  /** For `chain.events`. */
  chain: EventListeners<ChainEvents>;
  /** For `miner.events`: work served and submissions of external miners. */
  miner: EventListeners<MinerEvents>;
  /** For `rpc.events`. */
  rpc: EventListeners<RpcEvents>;
  /** For the sync manager's events (with p2p): runs by how they ended. */
  sync: EventListeners<SyncEvents>;
}

/** A registry with the process's default metrics and the counted ones. */
export function createNodeMetrics(): NodeMetrics {
  const registry = new Registry();
  collectDefaultMetrics({register: registry});
  // Created in the order /metrics has always listed them.
  const rpc = createRpcMetrics(registry);
  const miner = createMiningMetrics(registry);
  const chain = createChainMetrics(registry);
  const sync = createSyncMetrics(registry);
  return {registry, chain, miner, rpc, sync};
}
