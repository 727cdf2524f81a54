/** The `[rpc]` tables: `RpcOptions` of @xchain/rpc. */
import {REVERT_ERROR_STYLES, RPC_MODULE_NAMES} from "@xchain/rpc/options";
import type {ConfigKey} from "../configKey.ts";
import type {ValueKind} from "../values.ts";

const PORT: ValueKind = {type: "integer", min: 0, max: 65535};
const COUNT: ValueKind = {type: "integer", min: 1, max: 1_000_000_000};
const MS: ValueKind = {type: "integer", min: 1, max: 24 * 60 * 60 * 1000};
/** Confirmations below the head: 0 names the head itself. */
const DEPTH: ValueKind = {type: "integer", min: 0, max: 1_000_000_000};

function listener(transport: "http" | "ws", what: string): ConfigKey[] {
  return [
    {key: `rpc.${transport}.enabled`, kind: {type: "boolean"}, description: `serve JSON-RPC over ${what}`},
    {
      key: `rpc.${transport}.host`,
      kind: {type: "string"},
      placeholder: "host",
      description: `interface the ${what} listener binds (0.0.0.0 exposes it to the network)`,
    },
    {key: `rpc.${transport}.port`, kind: PORT, placeholder: "port", description: `${what} port (0 picks a free one)`},
    {
      key: `rpc.${transport}.vhosts`,
      kind: {type: "strings"},
      placeholder: "hosts",
      description: `names the Host header of ${what} requests may give, port ignored; others get 403 ("*" for any)`,
    },
  ];
}

/** What every `rpc.modules.<name>.enabled` left unset means; said once, above those flags in `--help`. */
export const RPC_MODULES_DEFAULT_TEXT =
  "unset, the network decides: all on regtest; evm, personal, debug, trace, sco, admin, db off on mainnet and testnet";

/** Per-namespace switches: unset, a namespace follows its network default. */
const moduleKeys: ConfigKey[] = RPC_MODULE_NAMES.map((name) => ({
  key: `rpc.modules.${name}.enabled`,
  kind: {type: "boolean"},
  optional: true,
  description: `${name}_* methods on or off`,
}));

/** Transports, limits and which methods answer. */
export const rpcKeys: readonly ConfigKey[] = [
  {
    key: "rpc.corsOrigins",
    kind: {type: "strings"},
    placeholder: "origins",
    optional: true,
    description:
      'origins answered with CORS headers over HTTP, rules as rpc.ws.origins ("*" for any; comma-separated as a flag); unset, the loopback names on regtest and custom, none elsewhere',
  },
  {
    key: "rpc.revertErrors",
    kind: {type: "string", choices: REVERT_ERROR_STYLES},
    placeholder: "style",
    optional: true,
    description:
      "a reverted eth_call/eth_estimateGas: rskj (-32015 VM Exception...) or geth (3, execution reverted: ...); unset, geth on regtest and custom, rskj elsewhere",
  },
  {
    key: "rpc.clientVersion",
    kind: {type: "string"},
    placeholder: "text",
    optional: true,
    description:
      "what web3_clientVersion answers instead of xchain/<version>/...; HardhatNetwork/xchain satisfies Hardhat's network helpers",
  },
  {key: "rpc.maxBatchSize", kind: COUNT, description: "most requests in one batch"},
  {key: "rpc.maxBodyBytes", kind: COUNT, description: "largest HTTP body or WebSocket message, in bytes"},
  {key: "rpc.maxJsonDepth", kind: {type: "integer", min: 1, max: 10_000}, description: "deepest JSON nesting accepted"},
  {key: "rpc.requestTimeoutMs", kind: MS, description: "time budget of one request body (a batch as a whole)"},
  {
    key: "rpc.sendTimeoutMs",
    kind: MS,
    description:
      "time budget of a request body that sends transactions (eth_sendRawTransaction, eth_sendTransaction, eth_sendUnsignedTransaction, personal_sendTransaction), in place of rpc.requestTimeoutMs when longer: with instant mining each send waits for its block (docs/rpc.md §8)",
  },
  {key: "rpc.maxResponseBytes", kind: COUNT, description: "largest response; a larger one is replaced by -32011"},
  {
    key: "rpc.maxInFlightResponseBytes",
    kind: COUNT,
    description: "response bytes all requests being answered may hold together; beyond, -32005",
  },
  {key: "rpc.maxInFlightPerConnection", kind: COUNT, description: "requests one WebSocket connection may have running"},
  {
    key: "rpc.maxSubscriptionsPerConnection",
    kind: COUNT,
    description: "subscriptions one WebSocket connection may hold",
  },
  {key: "rpc.maxSubscriptions", kind: COUNT, description: "subscriptions all WebSocket connections together may hold"},
  {
    key: "rpc.maxWsBufferedBytes",
    kind: COUNT,
    description: "unsent bytes a WebSocket client may leave queued before it is disconnected",
  },
  {key: "rpc.filterTimeoutMs", kind: MS, description: "a polled filter not polled for this long is removed"},
  {key: "rpc.maxFilters", kind: COUNT, description: "most installed polled filters on the node"},
  {
    key: "rpc.maxFiltersPerClient",
    kind: COUNT,
    description: "most polled filters one client (a remote address, or a loopback connection) may hold",
  },
  {key: "rpc.maxFilterChanges", kind: COUNT, description: "most unpolled entries a block or log filter keeps"},
  {
    key: "rpc.maxPendingFilterChanges",
    kind: COUNT,
    description: "most unpolled hashes a pending-transaction filter keeps",
  },
  {
    key: "rpc.logsMaxBlockRange",
    kind: COUNT,
    description: "eth_getLogs: a range up to this many blocks has no cap on logs",
  },
  {key: "rpc.logsMaxResults", kind: COUNT, description: "eth_getLogs over a longer range: at most this many logs"},
  {
    key: "rpc.safeDepth",
    kind: DEPTH,
    description: "the `safe` block tag names the block this many below the head (genesis on a shorter chain)",
  },
  {
    key: "rpc.finalizedDepth",
    kind: DEPTH,
    description: "the `finalized` block tag names the block this many below the head (genesis on a shorter chain)",
  },
  {key: "rpc.gasEstimationCap", kind: COUNT, description: "eth_estimateGas upper bound when the caller gives no gas"},
  {key: "rpc.callGasCap", kind: COUNT, description: "eth_call gas when the caller gives none, and the most it may ask"},
  {
    key: "rpc.callCacheBytes",
    kind: {type: "integer", min: 0, max: 1_000_000_000},
    description: "eth_call answers kept by block hash and call, in bytes; 0 keeps none",
  },
  {
    key: "rpc.blockCacheBytes",
    kind: {type: "integer", min: 0, max: 1_000_000_000},
    description:
      "formatted blocks (eth_getBlockByHash/ByNumber, both forms) kept by block hash, in bytes; 0 keeps none",
  },
  {
    key: "rpc.callWorkers",
    kind: {type: "integer", min: 0, max: 64},
    optional: true,
    description:
      "worker threads running eth_call/eth_estimateGas; unset, 0 on 2 cores or fewer, else cores - 1 (at most 4)",
  },
  {
    key: "rpc.maxCallsPerClient",
    kind: COUNT,
    description: "eth_call/eth_estimateGas running at once per client (address; each connection on loopback)",
  },
  {
    key: "rpc.maxConcurrentCalls",
    kind: COUNT,
    description: "eth_call/eth_estimateGas running at once on the node; more wait, served client by client",
  },
  {
    key: "rpc.bodyTimeoutMs",
    kind: MS,
    description:
      "an HTTP request's headers and body, and a WebSocket handshake, must arrive within this time; a slower client gets 408",
  },
  {
    key: "rpc.trace.maxTracesPerRequest",
    kind: COUNT,
    description: "trace_filter: default and maximum of count, and maximum of after",
  },
  {
    key: "rpc.trace.maxBlockRange",
    kind: COUNT,
    description: "trace_filter: most blocks one request covers (-32005 beyond)",
  },
  {
    key: "rpc.trace.timeoutMs",
    kind: MS,
    description: "time budget of a request body that calls a tracing method (trace_*, debug_trace*), if longer",
  },
  {
    key: "rpc.proofs.maxStorageKeys",
    kind: COUNT,
    description: "eth_getProof: most storage keys one request may ask for (-32602 beyond)",
  },
  {
    key: "rpc.allowCallStateOverride",
    kind: {type: "boolean"},
    optional: true,
    description: "eth_call takes a state override (3rd param); unset, on for regtest and custom, off elsewhere",
  },
  {
    key: "rpc.stateOverride.maxAccounts",
    kind: COUNT,
    description: "eth_call state override: most accounts one call overrides (-32602 beyond)",
  },
  {
    key: "rpc.db.maxKeyBytes",
    kind: COUNT,
    description: "db_* store: most UTF-8 bytes of a database name and key together (-32602 beyond)",
  },
  {
    key: "rpc.db.maxValueBytes",
    kind: COUNT,
    description: "db_* store: most bytes of one value (-32602 beyond)",
  },
  {
    key: "rpc.db.maxTotalBytes",
    kind: {type: "integer", min: 1, max: 2 ** 40},
    description: "db_* store: most bytes of every database name, key and value stored together (-32005 beyond)",
  },
  {
    key: "rpc.gateway.enabled",
    kind: {type: "boolean"},
    description: "API-key gateway: serve requests only at /<API key> with the keys of rpc.gateway.keysFile",
  },
  {
    key: "rpc.gateway.keysFile",
    kind: {type: "path"},
    optional: true,
    placeholder: "file",
    description: "the gateway's keys file, managed by xchain keys; unset, <datadir>/gateway-keys.json",
  },
  {
    key: "rpc.ipLimits.enabled",
    kind: {type: "boolean"},
    description: "per client address limits (never for loopback clients, not with the gateway on)",
  },
  {
    key: "rpc.ipLimits.requestsPerSecond",
    kind: COUNT,
    description: "requests per second one client address may send on average (HTTP 429 / -32005 beyond)",
  },
  {key: "rpc.ipLimits.burst", kind: COUNT, description: "requests one client address may send at once"},
  {
    key: "rpc.ipLimits.maxConnections",
    kind: COUNT,
    description: "TCP connections one client address may hold open, HTTP and WebSocket together",
  },
  {
    key: "rpc.ipLimits.maxAddresses",
    kind: COUNT,
    description: "client addresses whose limits are tracked; the least recently seen idle ones are dropped beyond",
  },
  {
    key: "rpc.tls.cert",
    kind: {type: "path"},
    optional: true,
    placeholder: "file",
    description: "PEM certificate chain: with rpc.tls.key, serve HTTPS and WSS",
  },
  {
    key: "rpc.tls.key",
    kind: {type: "path"},
    optional: true,
    placeholder: "file",
    description: "PEM private key of rpc.tls.cert",
  },
  ...listener("http", "HTTP POST"),
  ...listener("ws", "WebSocket"),
  {
    key: "rpc.ws.origins",
    kind: {type: "strings"},
    placeholder: "origins",
    description:
      'browser origins a WebSocket handshake may come from; others get 403 ("*" for any; none sent: allowed)',
  },
  {
    key: "rpc.methods.enabled",
    kind: {type: "strings"},
    placeholder: "methods",
    description: "methods switched on whatever their namespace says",
  },
  {
    key: "rpc.methods.disabled",
    kind: {type: "strings"},
    placeholder: "methods",
    description: "methods switched off whatever their namespace says (they answer -32601)",
  },
  ...moduleKeys,
];
