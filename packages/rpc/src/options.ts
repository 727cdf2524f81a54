/**
 * The rpc options (`[rpc]` of node.config.toml, `--rpc.*` flags) and their defaults. Which
 * namespaces answer depends on the network unless configured: on regtest all of them; on
 * mainnet and testnet `mnr` is on and `evm`, `anvil`, `hardhat`, `personal`, `debug`, `trace`, `sco`, `admin` and `db`
 * are off.
 */
import type {NetworkParams} from "@xchain/chainspec";

/** `rpc.ipLimits` (docs/config.md). */
export interface IpLimitOptions {
  /** Whether the limits apply (never on loopback, never with the gateway on: keys have their own). */
  enabled: boolean;
  /** Requests per second one address may send, on average. */
  requestsPerSecond: number;
  /** Requests one address may send at once on a full bucket. */
  burst: number;
  /** TCP connections one address may hold open, HTTP and WebSocket together; more are closed at once. */
  maxConnections: number;
  /** Addresses whose state is kept; the least recently seen idle ones are dropped beyond. */
  maxAddresses: number;
}

/** `rpc.db`: the bounds of the `db_*` key-value store (docs/rpc.md §4.7). */
export interface DappDbOptions {
  /** Most UTF-8 bytes of a database name and key together (-32602 beyond). Default 256. */
  maxKeyBytes: number;
  /** Most bytes of one value (-32602 beyond). Default 64 KiB. */
  maxValueBytes: number;
  /** Most bytes of every name, key and value stored together (-32005 beyond). Default 16 MiB. */
  maxTotalBytes: number;
}

/** The namespaces (docs/rpc.md §1.5). */
export const RPC_MODULE_NAMES = [
  "web3",
  "net",
  "eth",
  "xchain",
  "evm",
  "anvil",
  "hardhat",
  "mnr",
  "personal",
  "txpool",
  "debug",
  "trace",
  "sco",
  "admin",
  "db",
  "shh",
] as const;

/** A namespace. */
export type RpcModuleName = (typeof RPC_MODULE_NAMES)[number];

/** One listener. */
export interface RpcListenerOptions {
  /** Whether this transport listens at all. */
  enabled: boolean;
  /** Interface to bind; loopback by default, so that nothing is exposed unless asked. */
  host: string;
  /** TCP port; 0 picks a free one (`RpcServer.httpPort` / `wsPort` tell which). */
  port: number;
  /**
   * Names the `Host` header may give, the port ignored; others get 403 (docs/rpc.md §5.4, geth's
   * `--http.vhosts`). `"*"` allows any. Default the loopback names: a listener reached by another
   * name or address needs it listed.
   */
  vhosts: string[];
}

/** The WebSocket listener: also which browser origins may connect. */
export interface RpcWsListenerOptions extends RpcListenerOptions {
  /**
   * Origins a WebSocket handshake may come from when it sends one (browsers do); others get 403
   * (docs/rpc.md §5.4, geth's `--ws.origins`). A rule without scheme or port matches any; `"*"`
   * allows any origin. Default the loopback names.
   */
  origins: string[];
}

/** Everything the RPC server can be told. */
export interface RpcOptions {
  /** HTTP POST listener (default 127.0.0.1:4444, docs/protocol/networks.md §1). */
  http: RpcListenerOptions;
  /** WebSocket listener (default 127.0.0.1:4445). */
  ws: RpcWsListenerOptions;
  /**
   * Origins answered with CORS headers over HTTP, as rules like `ws.origins` (docs/rpc.md §5.4): a
   * rule without scheme matches any scheme, one without port any port; `"*"` allows any; empty sends
   * none. Unset, the network decides (`defaultCorsOrigins`): the loopback names on regtest and
   * custom, none elsewhere.
   */
  corsOrigins?: string[];
  /** Most requests in one body, nested arrays counted recursively (rskj `max_batch_requests_size`, 50). */
  maxBatchSize: number;
  /** Largest HTTP body or WebSocket message; larger ones get 413 (HTTP) or close 1009 (WS). Default 5 MiB. */
  maxBodyBytes: number;
  /** Deepest JSON nesting accepted (-32600 beyond, docs/protocol/errors.md). Default 64. */
  maxJsonDepth: number;
  /** Time budget of one body (a batch as a whole); past it the answer is -32011 (rskj `rpc.timeout`, 5,000 ms). */
  requestTimeoutMs: number;
  /**
   * Largest serialized response; a larger one is replaced by -32011 (rskj: 10 MB). Bytes are counted
   * as the response is built (docs/rpc.md §8): building stops as soon as it passes.
   */
  maxResponseBytes: number;
  /**
   * Response bytes all requests being answered may hold together; a request whose response would
   * pass it is answered -32005 at once (docs/rpc.md §8). Default 64 MiB.
   */
  maxInFlightResponseBytes: number;
  /**
   * Requests one WebSocket connection may have running; further messages wait with the socket
   * paused. Default 4: CPU-bound calls of one connection then hold the event loop for at most four
   * calls' time before other connections are read.
   */
  maxInFlightPerConnection: number;
  /** Subscriptions one WebSocket connection may hold (-32005 beyond, docs/rpc.md §8). Default 100. */
  maxSubscriptionsPerConnection: number;
  /** Subscriptions all connections together may hold (-32005 beyond). Default 10,000. */
  maxSubscriptions: number;
  /** Unsent bytes a WebSocket client may leave queued before it is disconnected as too slow. Default 16 MiB. */
  maxWsBufferedBytes: number;
  /** Per-namespace switch (`[rpc.modules.evm] enabled = true`); unset namespaces follow the network default. */
  modules: Partial<Record<RpcModuleName, {enabled: boolean}>>;
  /** Single methods switched on or off whatever their namespace says (`eth_sendTransaction`). */
  methods: {enabled: string[]; disabled: string[]};
  /** A polled filter not polled for this long is removed (docs/rpc.md §3.2; geth's 5 minutes). */
  filterTimeoutMs: number;
  /** Most installed polled filters on the node; eth_new*Filter is -32005 beyond (docs/rpc.md §8). Default 1,000. */
  maxFilters: number;
  /**
   * Most polled filters one client (`RpcClient.key`: a remote address, or a loopback connection)
   * may hold, so that one client cannot take every slot of `maxFilters`. Default 100.
   */
  maxFiltersPerClient: number;
  /** Most unpolled entries a block or log filter keeps; the oldest are dropped beyond. Default 10,000. */
  maxFilterChanges: number;
  /**
   * Most unpolled hashes a pending-transaction filter keeps; the oldest are dropped beyond. Default
   * 1,000: a wallet polling every 4 s loses none below 250 transactions/s (docs/rpc.md §3.2).
   */
  maxPendingFilterChanges: number;
  /** eth_getLogs: a range up to this many blocks has no cap on logs (docs/rpc.md §8, 2,000). */
  logsMaxBlockRange: number;
  /** eth_getLogs over a longer range: at most this many logs (docs/rpc.md §8, 10,000). */
  logsMaxResults: number;
  /**
   * Confirmations the `safe` block tag stands for: it names the block this many below the head,
   * genesis on a shorter chain (docs/rpc.md §4.3). Default 12.
   */
  safeDepth: number;
  /**
   * Confirmations the `finalized` block tag stands for, as `safeDepth` (docs/rpc.md §4.3). Default
   * 4,000: the depth Rootstock's Bridge waits for before it treats a peg-out as irreversible.
   */
  finalizedDepth: number;
  /** eth_estimateGas upper bound when the caller gives no gas (rskj `rpc.gasEstimationCap`, 6,800,000). */
  gasEstimationCap: number;
  /** eth_call gas when the caller gives none, and the most it may ask for. Default 50,000,000. */
  callGasCap: number;
  /** Bytes of eth_call answers kept by block hash and call (docs/rpc.md §4.4); 0 keeps none. */
  callCacheBytes: number;
  /**
   * Bytes of formatted blocks kept for eth_getBlockByHash and eth_getBlockByNumber, by block hash and
   * form (hashes or full transactions; docs/rpc.md §4.3); 0 keeps none. Default 8 MiB.
   */
  blockCacheBytes: number;
  /**
   * Worker threads that run eth_call and eth_estimateGas (execution's `CallService`; the RPC
   * server only sees its executor). Unset, by core count (`callWorkerCount`): one fewer than the
   * cores, at most 4, so one on 2 cores and none on one (docs/performance.md).
   */
  callWorkers?: number;
  /**
   * eth_call and eth_estimateGas running at once for one client (an address; each connection on
   * loopback); more wait their turn (docs/rpc.md §8). Default 4.
   */
  maxCallsPerClient: number;
  /** eth_call and eth_estimateGas running at once on the node; more wait, served client by client. Default 32. */
  maxConcurrentCalls: number;
  /**
   * An HTTP request's headers and body must have arrived within this time from its first byte;
   * a client still sending is answered 408 and disconnected (docs/rpc.md §4.1). Default 30 s.
   */
  bodyTimeoutMs: number;
  /**
   * Tracing (trace_*, debug_trace*): `maxTracesPerRequest` is trace_filter's default and maximum
   * of `count` and maximum of `after` (rskj 10,000); `maxBlockRange` the most blocks one trace_filter
   * covers (2,000; -32005 beyond, docs/protocol/traces.md §7); `timeoutMs` the time budget of a body
   * that calls a tracing method, in place of `requestTimeoutMs` when longer (docs/rpc.md §8, 30 s).
   */
  trace: {maxTracesPerRequest: number; maxBlockRange: number; timeoutMs: number};
  /**
   * The time budget of a body that sends transactions (eth_sendRawTransaction, eth_sendTransaction,
   * eth_sendUnsignedTransaction, personal_sendTransaction), in place of `requestTimeoutMs` when longer: on a node
   * that mines each transaction at once a send answers once its block is mined, so a batch of sends waits for
   * one block per transaction (docs/rpc.md §8). Default 30 s.
   */
  sendTimeoutMs: number;
  /** eth_getProof: `maxStorageKeys` is the most storage keys one request may ask for (-32602 beyond). Default 1,000. */
  proofs: {maxStorageKeys: number};
  /**
   * Whether eth_call takes a state override (docs/protocol/state-override.md §1; rskj
   * `rpc.allowCallStateOverride`). Unset, the network decides: on for regtest and custom, off elsewhere.
   */
  allowCallStateOverride?: boolean;
  /**
   * How a reverted eth_call or eth_estimateGas is answered (docs/rpc.md §7): `rskj` is -32015 `VM Exception
   * while processing transaction: revert <reason>`, `geth` is code 3 `execution reverted: <reason>`; both
   * carry the revert payload as `data`. Unset, the network decides (`revertErrorStyle`): `geth` on
   * regtest and custom, `rskj` on mainnet and testnet.
   */
  revertErrors?: RevertErrorStyle;
  /**
   * What web3_clientVersion answers in place of `xchain/<version>/<platform>/node<major>` (docs/rpc.md
   * §4.2); unset, that. `HardhatNetwork/xchain` makes Hardhat's network helpers accept the node.
   */
  clientVersion?: string;
  /** State override limits: `maxAccounts` the most accounts one call overrides (-32602 beyond; default 100). */
  stateOverride: {maxAccounts: number};
  /** The bounds of the `db_*` key-value store in the node's database (docs/rpc.md §4.7). */
  db: DappDbOptions;
  /**
   * The API-key gateway (docs/gateway.md): off by default. On, requests are served only at
   * `/<API key>` with the keys of `keysFile` (the node sets `<datadir>/gateway-keys.json` when unset).
   */
  gateway: {enabled: boolean; keysFile?: string};
  /**
   * Requests per second and connections per client address (docs/gateway.md "Per-IP limits"): on by
   * default, but never for loopback clients, and not with the gateway on (keys have their own limits).
   */
  ipLimits: IpLimitOptions;
  /** HTTPS and WSS with these PEM files (docs/gateway.md "TLS"); both or neither. */
  tls: RpcTlsOptions;
}

/** `rpc.tls`: paths of PEM files; both set, or neither. */
export interface RpcTlsOptions {
  /** The certificate chain, leaf first. */
  cert?: string;
  /** The private key of the certificate (unencrypted). */
  key?: string;
}

/** The forms of a reverted execution's error (`RpcOptions.revertErrors`). */
export const REVERT_ERROR_STYLES = ["rskj", "geth"] as const;

/** One of `REVERT_ERROR_STYLES`. */
export type RevertErrorStyle = (typeof REVERT_ERROR_STYLES)[number];

/** What `vhosts` and `origins` allow by default: loopback only. */
const LOOPBACK_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** The defaults; `modules` is empty, so each namespace follows `isModuleEnabledByDefault`. */
export const defaultRpcOptions: RpcOptions = {
  http: {enabled: true, host: "127.0.0.1", port: 4444, vhosts: [...LOOPBACK_NAMES]},
  ws: {enabled: true, host: "127.0.0.1", port: 4445, vhosts: [...LOOPBACK_NAMES], origins: [...LOOPBACK_NAMES]},
  maxBatchSize: 50,
  maxBodyBytes: 5 * 1024 * 1024,
  maxJsonDepth: 64,
  requestTimeoutMs: 5_000,
  maxResponseBytes: 10 * 1024 * 1024,
  maxInFlightResponseBytes: 64 * 1024 * 1024,
  maxInFlightPerConnection: 4,
  maxSubscriptionsPerConnection: 100,
  maxSubscriptions: 10_000,
  maxWsBufferedBytes: 16 * 1024 * 1024,
  modules: {},
  methods: {enabled: [], disabled: []},
  filterTimeoutMs: 5 * 60_000,
  maxFilters: 1_000,
  maxFiltersPerClient: 100,
  maxFilterChanges: 10_000,
  maxPendingFilterChanges: 1_000,
  logsMaxBlockRange: 2_000,
  logsMaxResults: 10_000,
  safeDepth: 12,
  finalizedDepth: 4_000,
  gasEstimationCap: 6_800_000,
  callCacheBytes: 16 * 1024 * 1024,
  blockCacheBytes: 8 * 1024 * 1024,
  callGasCap: 50_000_000,
  maxCallsPerClient: 4,
  maxConcurrentCalls: 32,
  bodyTimeoutMs: 30_000,
  trace: {maxTracesPerRequest: 10_000, maxBlockRange: 2_000, timeoutMs: 30_000},
  sendTimeoutMs: 30_000,
  proofs: {maxStorageKeys: 1_000},
  stateOverride: {maxAccounts: 100},
  db: {maxKeyBytes: 256, maxValueBytes: 64 * 1024, maxTotalBytes: 16 * 1024 * 1024},
  gateway: {enabled: false},
  ipLimits: {enabled: true, requestsPerSecond: 100, burst: 200, maxConnections: 64, maxAddresses: 10_000},
  tls: {},
};

const OFF_OUTSIDE_REGTEST: readonly RpcModuleName[] = [
  "evm",
  "anvil",
  "hardhat",
  "personal",
  "debug",
  "trace",
  "sco",
  "admin",
  "db",
];

/**
 * Whether a namespace answers on `network` when the options do not say. A custom network runs
 * regtest's rules and is a development network too.
 */
export function isModuleEnabledByDefault(module: RpcModuleName, network: NetworkParams["name"]): boolean {
  return isDevelopmentNetwork(network) || !OFF_OUTSIDE_REGTEST.includes(module);
}

/** Restricted methods: off on mainnet and testnet unless `methods.enabled` names them (docs/rpc.md §4.6). */
export const RESTRICTED_METHODS: readonly string[] = ["xchain_getStorageBytesAt"];

/** The methods off on `network` when the options do not switch them on (restricted ones on public networks). */
export function methodsDisabledByDefault(network: NetworkParams["name"]): readonly string[] {
  return isDevelopmentNetwork(network) ? [] : RESTRICTED_METHODS;
}

/**
 * Development controls served in another namespace than their own (docs/rpc.md §4.10), with the dev
 * namespace each belongs to: it answers where that namespace answers (`eth_sendUnsignedTransaction`
 * with `anvil`: off on mainnet and testnet and with `rpc.modules.anvil` off) unless `methods` names
 * it, and a gateway key calls it with that namespace or by name, never through the one it is served in.
 */
export const DEV_METHODS: Readonly<Record<string, RpcModuleName>> = {eth_sendUnsignedTransaction: "anvil"};

/** The dev methods whose own namespace is off (`isNamespaceEnabled` as the registry decides it). */
export function devMethodsDisabled(isNamespaceEnabled: (namespace: RpcModuleName) => boolean): string[] {
  return Object.entries(DEV_METHODS)
    .filter(([, namespace]) => !isNamespaceEnabled(namespace))
    .map(([name]) => name);
}

/** Whether eth_call takes a state override on `network` when `allowCallStateOverride` is unset. */
export function isCallStateOverrideAllowedByDefault(network: NetworkParams["name"]): boolean {
  return isDevelopmentNetwork(network);
}

/** The revert errors of `network` unless `configured`: geth's where dev tools run, rskj's on public networks. */
export function revertErrorStyle(
  configured: RevertErrorStyle | undefined,
  network: NetworkParams["name"],
): RevertErrorStyle {
  return configured ?? (isDevelopmentNetwork(network) ? "geth" : "rskj");
}

/**
 * The CORS origins of `network` unless `configured`: a dapp served from loopback (`http://localhost:3000`)
 * on a development network, as its WebSocket is (docs/rpc.md §5.4); none on public networks.
 */
export function corsOriginRules(
  configured: readonly string[] | undefined,
  network: NetworkParams["name"],
): readonly string[] {
  return configured ?? (isDevelopmentNetwork(network) ? LOOPBACK_NAMES : []);
}

function isDevelopmentNetwork(network: NetworkParams["name"]): boolean {
  return network === "regtest" || network === "custom" || network === "fork";
}
