/**
 * Wiring step 6, JSON-RPC: calls and estimates (on worker threads when there are cores for them),
 * the keystore or the dev wallet, the readiness probe, db_*'s store and the RPC server over every component.
 */
import {join} from "node:path";
import type {Chain} from "@xchain/chain";
import {type BlockExecutor, CallService, callWorkerCount} from "@xchain/execution";
import type {ImpersonationControls, Miner} from "@xchain/miner";
import {
  DappDb,
  forkHistory,
  formatClientVersion,
  type HealthProbe,
  type LoggingSwitch,
  type RpcDeps,
  RpcServer,
} from "@xchain/rpc";
import type {TxPool} from "@xchain/txpool";
import type {Logger} from "../logger.ts";
import {SECONDARY_STATE_SHARE, stateOptions} from "../memoryBudget.ts";
import {createReadinessProbe} from "../metrics/readiness.ts";
import {gatewayKeysFile, type NodeOptions} from "../options.ts";
import type {P2PStack} from "../p2pStack.ts";
import {cowPrivateKeys, createDevWallet} from "../wallet/devWallet.ts";
import {STANDARD_SCRYPT} from "../wallet/keyfile.ts";
import {KeystoreWallet} from "../wallet/keystore.ts";
import type {Closers} from "./closers.ts";
import type {ForkParts} from "./fork.ts";
import {NodeForkControls} from "./forkControls.ts";
import type {Storage} from "./storage.ts";

/** Where the RPC server listens (ports as bound: a configured 0 becomes the chosen port). */
export interface RpcEndpoints {
  http?: string;
  ws?: string;
}

/** What the RPC step builds. */
export interface RpcParts {
  rpc: RpcServer;
  endpoints: RpcEndpoints;
  /** `GET /ready` (the RPC port's and the metrics port's). */
  health: HealthProbe;
  /** Calls and estimates: on the worker pool, or all on the main thread when it has no workers. */
  calls: CallService;
}

/** What the RPC server serves. */
export interface RpcSources {
  storage: Storage;
  chain: Chain;
  /** The chain's executor: calls run on it without call workers. */
  executor: BlockExecutor;
  txpool: TxPool;
  miner: Miner;
  /** The impersonated accounts (anvil_impersonateAccount…), which the pool admits by. */
  impersonation: ImpersonationControls;
  p2p: P2PStack | undefined;
  /** `web3_clientVersion`'s version part. */
  version: string;
  logger: Logger;
  /** The transaction log's switch (anvil_setLoggingEnabled). */
  logging: LoggingSwitch;
}

/** Starts the call workers, opens the keystore and starts the RPC server. */
export async function startRpc(opts: NodeOptions, sources: RpcSources, closers: Closers): Promise<RpcParts> {
  const {storage, chain, executor, txpool, miner, impersonation, p2p, version, logger, logging} = sources;
  const {chainspec, db, fork} = storage;
  // Calls and estimates on worker threads over the same database, when there are cores for them.
  const calls = new CallService(
    {
      workers: callWorkerCount(opts.rpc.callWorkers),
      workerData: {
        dbPath: db.path,
        chainParams: chainspec.params,
        state: stateOptions(opts.state, SECONDARY_STATE_SHARE),
      },
    },
    {local: executor, state: storage.state, logger: logger.child({module: "callWorkers"})},
  );
  closers.push({name: "call workers", close: () => calls.close()});

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
    head: () => {
      const {number, header, totalDifficulty} = chain.head();
      return {number, timestamp: header.timestamp, totalDifficulty};
    },
    isMining: () => miner.isMining(),
    bestPeer: () => p2p?.bestPeer(),
    syncTarget: () => p2p?.syncProgress()?.highestBlock,
    awaitingFirstPeer: () => p2p?.awaitingFirstPeer() ?? false,
    now: Date.now,
    storageFault: () => (db.damage ?? db.diskFull)?.message,
  });
  const gateway = {...opts.rpc.gateway, keysFile: opts.rpc.gateway.keysFile ?? gatewayKeysFile(opts.dataDir)};
  const rpc = await RpcServer.start(
    {...opts.rpc, gateway},
    {
      chainspec,
      chain,
      txpool,
      miner,
      impersonation,
      pendingBlock: miner,
      executor: calls,
      wallet: keystore ?? createDevWallet(opts.wallet.enabled, chainspec.params.chainId),
      keystore,
      clientVersion: formatClientVersion(version),
      logger: logger.child({module: "rpc"}),
      peers: p2p?.peers,
      sync: p2p?.sync,
      scoring: p2p?.scoring,
      peerAdmin: p2p?.admin,
      wireQueue: p2p?.wireQueue,
      health,
      logging,
      // db_*'s key-value store, in the node's own database (docs/rpc.md §4.7).
      dappDb: await DappDb.open(opts.rpc.db, {store: db}),
      // A fork's history at or below the fork block is the upstream's (docs/forking.md §5), and so is the
      // storage of Rootstock's native contracts (§6); its controls re-fork and re-point it (§8).
      ...(fork
        ? {
            ...forkDeps(fork),
            forkControls: new NodeForkControls(opts, {
              fork,
              state: storage.state,
              chainControls: () => miner.devControls().chain,
              logger: logger.child({module: "fork"}),
            }),
          }
        : {}),
    },
  );
  closers.push({name: "rpc", close: () => rpc.close()});
  const tls = opts.rpc.tls.cert === undefined ? "" : "s";
  const endpoints: RpcEndpoints = {
    http: rpc.httpPort === undefined ? undefined : `http${tls}://${hostForUrl(opts.rpc.http.host)}:${rpc.httpPort}`,
    ws: rpc.wsPort === undefined ? undefined : `ws${tls}://${hostForUrl(opts.rpc.ws.host)}:${rpc.wsPort}`,
  };
  return {rpc, endpoints, health, calls};
}

/** An IPv6 address goes in brackets in a URL. */
export function hostForUrl(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/** What RPC reads from a fork's upstream (its source read anew at each call: a re-anchor may replace it). */
function forkDeps(fork: ForkParts): Pick<RpcDeps, "forkHistory" | "forkNativeStorage"> {
  return {
    forkHistory: forkHistory(() => fork.source),
    forkNativeStorage: {storageBytes: (address, key) => fork.source.storageBytes(address, key)},
  };
}
