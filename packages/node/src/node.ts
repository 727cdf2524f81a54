/**
 * The node runner: `Node.init` runs the wiring steps (wiring/) in dependency order (storage →
 * chain → pool and miner → network → the logs a person reads → RPC → metrics → the announcement),
 * each building its components with child loggers and putting their shutdowns on one list; metrics
 * and logs subscribe to the components' events (`chain.events`, `miner.events`, `rpc.events`).
 * `close` runs the shutdowns in reverse: RPC stops accepting requests first, the miner finishes or
 * abandons its block (an import is one atomic batch), and the database closes last.
 */
import type {Chain} from "@xchain/chain";
import {subscribe} from "@xchain/utils";
import {NodeStartError, NodeStartErrorCode} from "./errors.ts";
import {effectiveOptions} from "./fork/forkOptions.ts";
import type {Logger} from "./logger.ts";
import type {NodeOptions} from "./options.ts";
import type {P2PStack} from "./p2pStack.ts";
import {workNotSyncedReason} from "./syncStanding.ts";
import {announceStart} from "./wiring/announce.ts";
import {openChain} from "./wiring/chain.ts";
import {type Closers, closeAll} from "./wiring/closers.ts";
import {startLogs} from "./wiring/logs.ts";
import {startNetwork} from "./wiring/p2p.ts";
import {startPoolAndMiner} from "./wiring/poolAndMiner.ts";
import {type RpcEndpoints, startRpc} from "./wiring/rpc.ts";
import {openStorage} from "./wiring/storage.ts";

/** What `Node.init` is given besides the options. */
export interface NodeInitModules {
  logger: Logger;
  /** Aborting it (a signal during start-up) stops `init`, which then closes what it built. */
  signal?: AbortSignal;
  /** `web3_clientVersion`'s version part (the node package's version). */
  version?: string;
}

/** A running node. */
export class Node {
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly closers: Closers,
    private readonly logger: Logger,
    readonly chain: Chain,
    readonly endpoints: RpcEndpoints,
  ) {}

  /** Builds and starts every component; on failure closes what was built and rethrows. */
  static async init(given: NodeOptions, {logger, signal, version = "0.0.0"}: NodeInitModules): Promise<Node> {
    // Fork mode runs without p2p and call workers (docs/forking.md §4).
    const opts = effectiveOptions(given);
    const closers: Closers = [];
    const checkAbort = () => {
      if (signal?.aborted) throw new NodeStartError({code: NodeStartErrorCode.ABORTED}, "start-up interrupted");
    };
    try {
      const storage = await openStorage(opts, logger, closers);
      checkAbort();
      // Off, nothing is timed or counted: no listener is subscribed, and prom-client is not even loaded.
      const metrics = opts.metrics.enabled ? (await import("./metrics/nodeMetrics.ts")).createNodeMetrics() : undefined;
      const {chain, executor} = await openChain(opts, storage, logger, closers);
      if (metrics) closers.push({name: "chain metrics", close: subscribe(chain.events, metrics.chain)});
      checkAbort();

      // p2p starts after the miner; work is only asked for once RPC is up.
      let p2p: P2PStack | undefined;
      const notSyncedReason = () => workNotSyncedReason(opts.network, p2p);
      const {txpool, miner, impersonation, assemblerState, replayJournal} = startPoolAndMiner(
        opts,
        {storage, chain, notSyncedReason, logger},
        closers,
      );
      if (metrics) closers.push({name: "mining metrics", close: subscribe(miner.events, metrics.miner)});
      checkAbort();

      p2p = await startNetwork(opts, {chainspec: storage.chainspec, chain, txpool, logger}, closers);
      if (metrics && p2p) closers.push({name: "sync metrics", close: subscribe(p2p.syncEvents, metrics.sync)});
      checkAbort();
      // Once the miner and the relay listen, so that they take the journal's transactions as new ones.
      await replayJournal();

      const syncTarget = () => p2p?.sync.syncStatus()?.highestBlock;
      const logs = startLogs(opts, {chainspec: storage.chainspec, chain, txpool, miner, syncTarget, logger}, closers);

      const {rpc, endpoints, health, calls} = await startRpc(
        opts,
        {storage, chain, executor, txpool, miner, impersonation, p2p, version, logger, logging: logs.transactions},
        closers,
      );
      if (metrics) closers.push({name: "rpc metrics", close: subscribe(rpc.events, metrics.rpc)});

      const metricsUrl =
        metrics &&
        (await (
          await import("./wiring/metrics.ts")
        ).serveMetrics(
          opts,
          metrics,
          {storage, chain, txpool, assemblerState, p2p, rpc, calls, health, logger},
          closers,
        ));
      announceStart(opts, {
        version,
        chainspec: storage.chainspec,
        fork: storage.fork?.source,
        chain,
        p2pAddresses: p2p?.addresses,
        endpoints,
        metricsUrl,
        logger,
      });
      return new Node(closers, logger, chain, endpoints);
    } catch (e) {
      await closeAll(closers, logger);
      throw e;
    }
  }

  /** Stops every component in reverse order of construction; safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= closeAll(this.closers, this.logger);
    return this.closing;
  }
}
