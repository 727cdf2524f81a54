/**
 * `NodeOptions`: every option of a node, one table per component, as node.config.toml and the
 * dotted flags spell them. Each package owns its defaults (`defaultXOptions`); this file combines
 * them and adds the presets of each network. Precedence: defaults < preset < file < flags.
 */
import {homedir} from "node:os";
import {join} from "node:path";
import {type ChainOptions, defaultChainOptions, type StateMode} from "@xchain/chain/options";
import {getChainspec, type NetworkParams} from "@xchain/chainspec";
import {defaultMinerOptions, type MinerOptions} from "@xchain/miner/options";
import {defaultP2POptions, type P2POptions} from "@xchain/p2p/options";
import {defaultRpcOptions, type RpcOptions} from "@xchain/rpc/options";
import {defaultForkSourceOptions, defaultStateOptions, type ForkVerifyMode} from "@xchain/state/options";
import {defaultSyncOptions, type SyncOptions} from "@xchain/sync/options";
import {defaultTxPoolOptions, type TxPoolOptions} from "@xchain/txpool/options";
import type {LogLevel} from "./logger.ts";
import type {NetworkChoice} from "./network.ts";
import type {VerifyRpcOptions} from "./verify/rpcBlockFetcher.ts";

export type {NetworkChoice} from "./network.ts";

/** Every option of a node. */
export interface NodeOptions {
  network: NetworkChoice;
  /** Where the node keeps its database; preset `~/.xchain/<network>`. */
  dataDir: string;
  /** The genesis JSON of a `custom` network. */
  genesisFile: string | undefined;
  log: {
    level: LogLevel;
    /**
     * Warn when the head has not moved for this many seconds; 0 = never. Unset: 3 × the expected
     * block interval (the miner's block time, else the network's target; none on regtest without one).
     */
    headStallSeconds: number | undefined;
    /**
     * One info line per transaction of each new head block, and empty blocks at debug (docs/operations.md
     * §4). Unset: on for regtest and custom (`isTransactionLogOnByDefault`), off elsewhere.
     */
    transactions: boolean | undefined;
  };
  wallet: WalletOptions;
  /** The world state's cache budgets, in MiB (docs/operations.md §8; memoryBudget.ts shares them out). */
  state: {
    /** The trie-node cache; block assembly and each call worker get a quarter more. */
    cacheMb: number;
    /** Contract code by code hash; block assembly and each call worker get a quarter more. */
    codeCacheMb: number;
    /** The account and storage caches of the recent readers; each call worker gets a quarter more. */
    readerCacheMb: number;
    /** Whether the flat state of the head is kept and read first (docs/operations.md §13). */
    flat: boolean;
    /** `pruned` (the default) deletes the states older than `retainBlocks` blocks; `archive` keeps every one (docs/operations.md §12). */
    mode: StateMode;
    /** Blocks whose states a pruned node keeps, the head's included (the chain's `StateRetentionOptions`). */
    retainBlocks: number;
  };
  db: {
    /** Writes are refused while the database's device has less free space, in MiB (docs/operations.md §6). */
    minFreeMb: number;
    /** LevelDB's block cache of uncompressed table blocks, in MiB (docs/operations.md §8). */
    cacheMb: number;
    /** LevelDB's write buffer (memtable), in MiB; up to two are held at once. */
    writeBufferMb: number;
  };
  /** The chain's caches; its retention is `state.mode` and `state.retainBlocks` (`chainOptions`). */
  chain: Omit<ChainOptions, "retention">;
  fork: ForkModeOptions;
  bridge: BridgeOptions;
  txpool: TxPoolOptions;
  miner: MinerOptions;
  rpc: RpcOptions;
  p2p: P2POptions;
  sync: SyncOptions;
  metrics: MetricsOptions;
  /** Risky configurations accepted deliberately (config/risks.ts); each is refused otherwise. */
  unsafe: UnsafeOptions;
}

/**
 * The `[fork]` table: fork mode (docs/forking.md §4), a local regtest chain over the state of an
 * upstream's block, read lazily through the upstream reader (`ForkSource`) and its disk cache.
 */
export interface ForkModeOptions {
  /** The upstream's JSON-RPC URL; undefined: no fork. */
  url: string | undefined;
  /** The fork block as given: a decimal number or a 0x-prefixed 32-byte hash (`forkBlockOf`). */
  block: string | undefined;
  /** The chain id the fork signs with; undefined: the upstream's. */
  chainId: number | undefined;
  /** Answer from the cache only. */
  offline: boolean;
  verify: ForkVerifyMode;
  /** Most calls a second to the upstream; 0: no limit; undefined: none on loopback, else 100. */
  requestsPerSecond: number | undefined;
  /** Retries of a transiently failed upstream call. */
  retries: number;
  /** One upstream request's time budget, in ms. */
  timeoutMs: number;
  /** Blocks below the upstream's head the default fork block is. */
  safeDepth: number;
  /** The upstream reader's cache; undefined: `<dataDir>/fork-cache`. */
  cacheDir: string | undefined;
}

/** The `[bridge]` table (docs/protocol/native-contracts.md §10.3). */
export interface BridgeOptions {
  /** Hex compressed keys of the genesis federation in place of the network's; empty: the network's. */
  genesisFederationPublicKeys: string[];
}

/** No fork; the upstream reader's defaults (docs/forking.md §1). */
export const defaultForkModeOptions: ForkModeOptions = {
  url: undefined,
  block: undefined,
  chainId: undefined,
  offline: defaultForkSourceOptions.offline,
  verify: defaultForkSourceOptions.verify,
  requestsPerSecond: defaultForkSourceOptions.requestsPerSecond,
  retries: defaultForkSourceOptions.retries,
  timeoutMs: defaultForkSourceOptions.timeoutMs,
  safeDepth: defaultForkSourceOptions.safeDepth,
  cacheDir: undefined,
};

/** The fork cache's directory when `fork.cacheDir` is unset: `<datadir>/fork-cache`. */
export function forkCacheDir(opts: Pick<NodeOptions, "dataDir" | "fork">): string {
  return opts.fork.cacheDir ?? join(opts.dataDir, "fork-cache");
}

/** The `[unsafe]` table: each key accepts one risky configuration, which then logs a warning. */
export interface UnsafeOptions {
  /** The dev wallet, `evm_*` or `personal_*` on an RPC listener bound beyond loopback. */
  allowDevControlsOnPublicRpc: boolean;
  /** The dev wallet with `*` in `rpc.corsOrigins`, `rpc.http.vhosts` or `rpc.ws.origins`. */
  allowWalletWithAnyOrigin: boolean;
  /** `evm_*` or `personal_*` on mainnet or testnet. */
  allowDevControlsOnPublicNetwork: boolean;
}

/**
 * The `[metrics]` table: the Prometheus endpoint and the readiness rule of `GET /ready`
 * (docs/operations.md), which the RPC HTTP port serves too.
 */
export interface MetricsOptions {
  /** Serve `/metrics`, `/health` and `/ready` on a listener of their own. */
  enabled: boolean;
  /** Interface the metrics listener binds; loopback by default (the metrics name no secret, but tell a lot). */
  host: string;
  /** TCP port; 0 picks a free one. Default 9464, apart from the RPC (4444, 4445) and p2p ports. */
  port: number;
  /** `/ready` fails when the head's timestamp is older than this, in seconds (not checked while the built-in miner runs). */
  readyMaxHeadAgeSeconds: number;
  /** `/ready` fails when the node is more than this many blocks behind its heaviest peer's head or a running sync's target. */
  readyMaxBlocksBehind: number;
}

/** Metrics off; readiness: a head at most 10 minutes old, at most 10 blocks behind the heaviest peer or the sync's target. */
export const defaultMetricsOptions: MetricsOptions = {
  enabled: false,
  host: "127.0.0.1",
  port: 9464,
  readyMaxHeadAgeSeconds: 600,
  readyMaxBlocksBehind: 10,
};

/** The `[wallet]` table: the accounts RPC signs with (eth_accounts, eth_sendTransaction, eth_sign, personal_*). */
export interface WalletOptions {
  /** The development wallet: the cow accounts sign for `eth_sendTransaction` and `eth_sign` (regtest only). */
  enabled: boolean;
  /** The keystore of `<datadir>/keystore` for personal_* (docs/protocol/keystore.md); regtest only by default. */
  keystore: boolean;
  /** Whether personal_dumpRawKey may reveal the key of an unlocked account. */
  allowDumpRawKey: boolean;
  /**
   * Keystore key derivations (scrypt, 256 MiB and a thread of libuv's pool for about a second each)
   * running at once (docs/protocol/keystore.md §5).
   */
  keyDerivations: number;
  /** Key derivations waiting for one of those; past them the keystore answers -32005 busy. */
  keyDerivationQueue: number;
}

const MIB = 1024 * 1024;

/** The wallet off, one key derivation at a time and four waiting (about what one request timeout allows). */
const defaultWalletOptions: WalletOptions = {
  enabled: false,
  keystore: false,
  allowDumpRawKey: false,
  keyDerivations: 1,
  keyDerivationQueue: 4,
};

/** The options before any network preset (the package defaults; the miner's of regtest). */
export const defaultNodeOptions: NodeOptions = {
  network: "regtest",
  dataDir: defaultDataDir("regtest"),
  genesisFile: undefined,
  log: {level: "info", headStallSeconds: undefined, transactions: undefined},
  wallet: defaultWalletOptions,
  state: {
    cacheMb: defaultStateOptions.nodeCacheBytes / MIB,
    codeCacheMb: defaultStateOptions.codeCacheBytes / MIB,
    readerCacheMb: defaultStateOptions.readerCacheBytes / MIB,
    flat: defaultStateOptions.flatState,
    ...defaultChainOptions.retention,
  },
  // LevelDB's block cache and write buffer: LevelDB's own defaults.
  db: {minFreeMb: 128, cacheMb: 8, writeBufferMb: 4},
  chain: {headerCacheSize: defaultChainOptions.headerCacheSize, logCacheMb: defaultChainOptions.logCacheMb},
  fork: defaultForkModeOptions,
  bridge: {genesisFederationPublicKeys: []},
  txpool: defaultTxPoolOptions,
  miner: defaultMinerOptions(getChainspec("regtest")),
  rpc: defaultRpcOptions,
  p2p: defaultP2POptions(getChainspec("regtest").params.p2pPort),
  sync: defaultSyncOptions,
  metrics: defaultMetricsOptions,
  unsafe: {allowDevControlsOnPublicRpc: false, allowWalletWithAnyOrigin: false, allowDevControlsOnPublicNetwork: false},
};

/** What a network changes from the defaults (rpc namespaces follow the network inside the rpc package). */
export interface NetworkPreset {
  network: NetworkChoice;
  dataDir: string;
  wallet: WalletOptions;
  miner: MinerOptions;
  /** The network's p2p port (docs/protocol/networks.md §1); on regtest the loopback interface. */
  p2p: P2POptions;
}

/**
 * The regtest block interval besides automining: rskj regtest's `delayBetweenBlocks`
 * (docs/protocol/mining-rpc.md §6).
 */
const DEV_BLOCK_TIME_MS = 1_000;

/**
 * The preset of `network`: its data directory, the dev wallet and a loopback p2p listener on
 * regtest only, and the miner's
 * defaults (a custom network runs regtest's rules, so it mines like regtest, without the cow wallet).
 * Development networks also mine a block every second: a client that polls for new blocks (ethers'
 * `tx.wait()`) and first looked just after its transaction's block would otherwise wait forever.
 */
export function networkPreset(network: NetworkChoice): NetworkPreset {
  const chainspec = getChainspec(network === "custom" ? "regtest" : network);
  const miner = defaultMinerOptions(chainspec);
  return {
    network,
    dataDir: defaultDataDir(network),
    wallet: {...defaultWalletOptions, enabled: network === "regtest", keystore: network === "regtest"},
    miner: miner.enabled ? {...miner, blockTimeMs: DEV_BLOCK_TIME_MS} : miner,
    // A regtest node is a developer's own: it joins no network unless told (`p2p.host`).
    p2p: {...defaultP2POptions(chainspec.params.p2pPort), ...(network === "regtest" ? {host: "127.0.0.1"} : {})},
  };
}

/** Whether the transaction log is on when `log.transactions` is unset: on development networks. */
export function isTransactionLogOnByDefault(network: NetworkParams["name"]): boolean {
  return network === "regtest" || network === "custom";
}

/** The gateway's keys file when `rpc.gateway.keysFile` is unset: `<datadir>/gateway-keys.json` (docs/gateway.md). */
export function gatewayKeysFile(dataDir: string): string {
  return join(dataDir, "gateway-keys.json");
}

/** `~/.xchain/<network>`, and `~/.xchain/fork` for fork mode (apart from the regtest chain). */
export function defaultDataDir(network: NetworkChoice | "fork"): string {
  return join(homedir(), ".xchain", network);
}

/**
 * `verify-headers --rpc` (docs/operations.md §9): batches of 50 blocks, two in flight, at most 100 blocks a
 * second (two batch requests: gentle on a public node), 5 retries of a transient failure, 30 s per request.
 */
export const defaultVerifyRpcOptions: VerifyRpcOptions = {
  batchSize: 50,
  concurrency: 2,
  rate: 100,
  retries: 5,
  timeoutMs: 30_000,
};

/** The chain's options: its `[chain]` table with the `[state]` table's retention. */
export function chainOptions(opts: Pick<NodeOptions, "chain" | "state">): ChainOptions {
  return {...opts.chain, retention: {mode: opts.state.mode, retainBlocks: opts.state.retainBlocks}};
}
