/**
 * The node runner: `Node.init` builds the components in dependency order (database → chain →
 * txpool → miner → p2p and sync → the logs a person reads (log/) → RPC → metrics), each with a
 * child logger, and `close` tears them down in reverse: RPC stops
 * accepting requests first, the miner finishes or abandons its block (an import is one atomic
 * batch), and the database closes last.
 */
import {join} from "node:path";
import {Chain, ChainError, ChainErrorCode} from "@xchain/chain";
import {BlockExecutor, CallService, callWorkerCount} from "@xchain/execution";
import {Miner} from "@xchain/miner";
import {formatClientVersion, type Listener, RpcServer} from "@xchain/rpc";
import {StateDatabase} from "@xchain/state";
import {JOURNAL_FILE, TxJournal, TxPool} from "@xchain/txpool";
import {damaged, openDatabase, startErrorOf} from "./dataDir/openDatabase.ts";
import {keepHeadRecord} from "./dataDir/recordedHead.ts";
import {NodeStartError, NodeStartErrorCode} from "./errors.ts";
import {warnIfAlone} from "./log/aloneWarning.ts";
import {BlockLog} from "./log/blockLog.ts";
import {HeadStallWatch, headStallMs} from "./log/headStall.ts";
import {logStartupBanner} from "./log/startupBanner.ts";
import {withSubmissionLog} from "./log/submissionLog.ts";
import {logPendingTransactions} from "./log/txLog.ts";
import type {Logger} from "./logger.ts";
import {levelDbMemory, levelDbUsage, SECONDARY_STATE_SHARE, stateOptions, sumByCache} from "./memoryBudget.ts";
import {startMetricsServer} from "./metrics/metricsServer.ts";
import {NodeMetrics} from "./metrics/nodeMetrics.ts";
import {createReadinessProbe} from "./metrics/readiness.ts";
import {loadNetwork} from "./network.ts";
import {gatewayKeysFile, type NodeOptions} from "./options.ts";
import {type P2PStack, startP2P} from "./p2pStack.ts";
import {workNotSyncedReason} from "./syncStanding.ts";
import {cowPrivateKeys, createDevWallet} from "./wallet/devWallet.ts";
import {STANDARD_SCRYPT} from "./wallet/keyfile.ts";
import {KeystoreWallet} from "./wallet/keystore.ts";

/** What `Node.init` is given besides the options. */
export interface NodeInitModules {
  logger: Logger;
  /** Aborting it (a signal during start-up) stops `init`, which then closes what it built. */
  signal?: AbortSignal;
  /** `web3_clientVersion`'s version part (the node package's version). */
  version?: string;
}

/** Where the RPC server listens (ports as bound: a configured 0 becomes the chosen port). */
export interface RpcEndpoints {
  http?: string;
  ws?: string;
}

/** A component's shutdown, run in reverse order of construction. */
interface Closer {
  name: string;
  close(): Promise<void> | void;
}

const MIB = 1024 * 1024;

/** A running node. */
export class Node {
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly closers: Closer[],
    private readonly logger: Logger,
    readonly chain: Chain,
    readonly endpoints: RpcEndpoints,
  ) {}

  /** Builds and starts every component; on failure closes what was built and rethrows. */
  static async init(opts: NodeOptions, {logger, signal, version = "0.0.0"}: NodeInitModules): Promise<Node> {
    const closers: Closer[] = [];
    const checkAbort = () => {
      if (signal?.aborted) throw new NodeStartError({code: NodeStartErrorCode.ABORTED}, "start-up interrupted");
    };
    try {
      const {chainspec, genesis} = await loadNetwork(opts.network, opts.genesisFile);
      const callWorkers = callWorkerCount(opts.rpc.callWorkers);
      const {db, record} = await openDatabase(
        opts.dataDir,
        {shared: callWorkers > 0, minFreeBytes: opts.db.minFreeMb * MIB, ...levelDbMemory(opts.db)},
        logger,
      );
      closers.push({name: "database", close: () => db.close()});
      checkAbort();
      // Off, nothing is timed or counted: the hooks below are not installed.
      const metrics = opts.metrics.enabled ? new NodeMetrics() : undefined;

      const state = new StateDatabase(stateOptions(opts.state, 1), {store: db});
      const executor = new BlockExecutor({}, {chainspec, state});
      const chain = await Chain.open(opts.chain, {
        store: db,
        chainspec,
        genesis,
        state,
        executor,
        logger: logger.child({module: "chain"}),
        onImport: metrics?.onImport,
      }).catch((e) => {
        if (e instanceof ChainError && e.code === ChainErrorCode.HEAD_MISSING) {
          throw damaged(opts.dataDir, "its head block is not stored", true);
        }
        throw startErrorOf(e, opts.dataDir);
      });
      const identity = {network: chainspec.params.name, chainId: chainspec.params.chainId};
      const recorder = await keepHeadRecord(opts.dataDir, record, chain, identity, logger.child({module: "db"}));
      const recordHead = ({head}: {head: {number: number; hash: Uint8Array}}) => recorder.update(head);
      chain.events.on("newHead", recordHead);
      closers.push({
        name: "database record",
        close: () => {
          chain.events.off("newHead", recordHead);
          return recorder.close();
        },
      });
      if (metrics) chain.events.on("newHead", metrics.onNewHead);
      checkAbort();

      const storageFault = () => (db.damage ?? db.diskFull)?.message;
      const txpool = new TxPool(opts.txpool, {
        chainspec,
        chain,
        logger: logger.child({module: "txpool"}),
        storageFault: () => db.diskFull?.message,
      });
      // The journal is written once the pool takes nothing more (docs/operations.md §7).
      const journal = opts.txpool.journal
        ? new TxJournal(
            {...opts.txpool, path: join(opts.dataDir, JOURNAL_FILE)},
            {pool: txpool, logger: logger.child({module: "txpool"})},
          )
        : undefined;
      closers.push({name: "txpool", close: () => txpool.close().then(() => journal?.close())});

      // Block assembly gets a state database of its own (same store), so that it does not take the
      // chain's warm session away from imports (state README).
      const assemblerState = new StateDatabase(stateOptions(opts.state, SECONDARY_STATE_SHARE), {store: db});
      const assembler = new BlockExecutor({}, {chainspec, state: assemblerState});
      let p2p: P2PStack | undefined;
      const miner = new Miner(opts.miner, {
        chain,
        txpool,
        assembler,
        chainspec,
        // The pending block's state is staged where RPC reads state.
        pendingState: state,
        logger: logger.child({module: "miner"}),
        // p2p starts after the miner; work is only asked for once RPC is up.
        notSyncedReason: () => workNotSyncedReason(opts.network, p2p),
      });
      closers.push({name: "miner", close: () => miner.close()});
      checkAbort();

      p2p = opts.p2p.enabled
        ? await startP2P(opts, {chainspec, chain, txpool, dataDir: opts.dataDir, logger})
        : undefined;
      if (p2p) closers.push({name: "p2p", close: () => p2p.close()});
      checkAbort();
      // Once the miner and the relay listen, so that they take the journal's transactions as new ones.
      if (journal) {
        await journal.load();
        journal.start();
      }

      const chainLog = logger.child({module: "chain"});
      const blockLog = new BlockLog({logger: chainLog, syncTarget: () => p2p?.sync.syncStatus()?.highestBlock});
      chain.events.on("newHead", blockLog.onNewHead);
      closers.push({
        name: "block log",
        close: () => {
          chain.events.off("newHead", blockLog.onNewHead);
          blockLog.close();
        },
      });
      const stallMs = headStallMs({
        headStallSeconds: opts.log.headStallSeconds,
        minerEnabled: opts.miner.enabled,
        blockTimeMs: opts.miner.blockTimeMs,
        network: chainspec.params.name,
        targetIntervalSeconds: chainspec.params.durationLimitSeconds,
      });
      if (stallMs !== undefined) {
        const watch = new HeadStallWatch(stallMs, chain, chainLog);
        closers.push({name: "stall watch", close: () => watch.close()});
      }
      const stopTxLog = logPendingTransactions((l) => txpool.onPending(l), logger.child({module: "txpool"}));
      closers.push({name: "transaction log", close: stopTxLog});

      // Calls and estimates on worker threads over the same database, when there are cores for them.
      const callExecutor = new CallService(
        {
          workers: callWorkers,
          workerData: {
            dbPath: db.path,
            chainParams: chainspec.params,
            state: stateOptions(opts.state, SECONDARY_STATE_SHARE),
          },
        },
        {local: executor, state, logger: logger.child({module: "callWorkers"})},
      );
      closers.push({name: "call workers", close: () => callExecutor.close()});

      const keystore = opts.wallet.keystore
        ? await KeystoreWallet.open(
            {
              dir: join(opts.dataDir, "keystore"),
              scrypt: STANDARD_SCRYPT,
              allowDumpRawKey: opts.wallet.allowDumpRawKey,
              derivations: {running: opts.wallet.keyDerivations, waiting: opts.wallet.keyDerivationQueue},
            },
            {chainId: chainspec.params.chainId, devKeys: opts.wallet.enabled ? cowPrivateKeys() : []},
          )
        : undefined;
      const health = createReadinessProbe(opts.metrics, {
        head: () => ({number: chain.head().number, timestamp: chain.head().header.timestamp}),
        isMining: () => miner.isMining(),
        bestPeerNumber: () => p2p?.bestPeerNumber(),
        awaitingFirstPeer: () => p2p?.awaitingFirstPeer() ?? false,
        now: Date.now,
        storageFault,
      });
      const gateway = {...opts.rpc.gateway, keysFile: opts.rpc.gateway.keysFile ?? gatewayKeysFile(opts.dataDir)};
      const rpc = await RpcServer.start(
        {...opts.rpc, gateway},
        {
          chainspec,
          chain,
          txpool,
          miner: withSubmissionLog(metrics ? metrics.observeMining(miner) : miner, logger.child({module: "miner"})),
          pendingBlock: miner,
          executor: callExecutor,
          wallet: keystore ?? createDevWallet(opts.wallet.enabled, chainspec.params.chainId),
          keystore,
          clientVersion: formatClientVersion(version),
          logger: logger.child({module: "rpc"}),
          peers: p2p?.peers,
          sync: p2p?.sync,
          scoring: p2p?.scoring,
          wireQueue: p2p?.wireQueue,
          health,
          observer: metrics?.rpcObserver,
        },
      );
      closers.push({name: "rpc", close: () => rpc.close()});
      let metricsListener: Listener | undefined;
      if (metrics) {
        metrics.attach({
          head: () => chain.head(),
          peers: p2p?.peers ?? {peerCount: () => 0},
          syncProgress: () => p2p?.syncProgress(),
          txpool,
          rpc,
          dbDir: join(opts.dataDir, "db"),
          caches: () =>
            sumByCache([
              ...state.cacheUsage("state"),
              ...assemblerState.cacheUsage("assembler"),
              ...callExecutor.cacheUsage(),
              ...chain.cacheUsage(),
              txpool.cacheUsage(),
              {cache: "rpc.callAnswers", bytes: rpc.callCacheStats().bytes, budgetBytes: opts.rpc.callCacheBytes},
              {cache: "rpc.blocks", bytes: rpc.blockCacheStats().bytes, budgetBytes: opts.rpc.blockCacheBytes},
              levelDbUsage(opts.db, db.memoryBytes()),
            ]),
          workersHeapUsedBytes: () => callExecutor.heapUsedBytes(),
        });
        metricsListener = await startMetricsServer(opts.metrics, {
          registry: metrics.registry,
          health,
          logger: logger.child({module: "metrics"}),
        });
        const listener = metricsListener;
        closers.push({name: "metrics", close: () => listener.close()});
      }
      const tls = opts.rpc.tls.cert === undefined ? "" : "s";
      const endpoints: RpcEndpoints = {
        http: rpc.httpPort === undefined ? undefined : `http${tls}://${hostForUrl(opts.rpc.http.host)}:${rpc.httpPort}`,
        ws: rpc.wsPort === undefined ? undefined : `ws${tls}://${hostForUrl(opts.rpc.ws.host)}:${rpc.wsPort}`,
      };
      const head = chain.head();
      logStartupBanner(
        {
          version,
          network: chainspec.params.name,
          chainId: chainspec.params.chainId,
          dataDir: opts.dataDir,
          head: {number: head.number, hash: head.hash},
          p2p: p2p?.addresses,
          miner: opts.miner,
          devKeys: chainspec.params.name === "regtest" ? cowPrivateKeys() : [],
        },
        logger.child({module: "node"}),
      );
      warnIfAlone(
        {
          network: opts.network,
          chainId: chainspec.params.chainId,
          p2pEnabled: opts.p2p.enabled,
          bootnodes: opts.p2p.bootnodes,
        },
        logger.child({module: "p2p"}),
      );
      const startupMs = Math.round(performance.now());
      const metricsUrl = metricsListener && `http://${hostForUrl(opts.metrics.host)}:${metricsListener.port}/metrics`;
      logger
        .child({module: "rpc"})
        .info(
          {...endpoints, p2p: p2p?.addresses, metrics: metricsUrl, startupMs},
          `JSON-RPC ready ${startupMs} ms after start: ${[endpoints.http, endpoints.ws].filter(Boolean).join(" ") || "(no listener enabled)"}`,
        );
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

/** An IPv6 address goes in brackets in a URL. */
function hostForUrl(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

async function closeAll(closers: Closer[], logger: Logger): Promise<void> {
  for (const closer of [...closers].reverse()) {
    try {
      await closer.close();
      logger.debug({component: closer.name}, `${closer.name} closed`);
    } catch (e) {
      logger.error({component: closer.name, err: e}, `closing the ${closer.name} failed`);
    }
  }
}
