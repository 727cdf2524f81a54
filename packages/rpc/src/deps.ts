/**
 * What the RPC server answers from, as narrow interfaces (design "RPC"): each namespace module
 * takes a `Pick<ModuleDeps, …>` of what it reads, so tests and the node wire only that.
 */
import type {EventEmitter} from "node:events";
import type {ChainEvents, ChainReader} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import type {
  CallInput,
  CallResult,
  ExecuteBlockInput,
  ExecutionTracer,
  TraceScope,
  TransactionOutcome,
} from "@xchain/execution";
import type {ImpersonationControls, MinerApi, PendingBlockSource} from "@xchain/miner";
import type {PeerScoringInfo, ReputationSummary} from "@xchain/p2p";
import type {Transaction, TransactionValues} from "@xchain/primitives";
import type {TxPoolApi} from "@xchain/txpool";
import type {IpAddressOrRange, Logger} from "@xchain/utils";

/** The chain's reads plus its `newHead` events (`Chain` satisfies it). */
export type RpcChain = ChainReader & {readonly events: Pick<EventEmitter<ChainEvents>, "on" | "off">};

/**
 * Fork mode: the upstream's raw storage of Rootstock's native contracts at the fork block, which
 * `xchain_getStorageBytesAt` answers for their addresses (docs/forking.md §6). `ForkSource` implements it.
 */
export interface ForkNativeStorage {
  /** The bytes stored under `key` (32 bytes) in the storage of `address` at the fork block; empty when none. */
  storageBytes(address: Uint8Array, key: Uint8Array): Promise<Uint8Array>;
}

/** Runs messages and re-executes blocks without keeping anything (`BlockExecutor`). */
export interface CallExecutor {
  /** One message (eth_call, eth_estimateGas). */
  call(input: CallInput): Promise<CallResult>;
  /** A block re-executed for a tracer (trace_*, debug_trace*); the outcomes of the traced transactions. */
  trace(input: ExecuteBlockInput, tracer: ExecutionTracer, scope?: TraceScope): Promise<TransactionOutcome[]>;
  /** One message as `call` runs it, told to a tracer as one transaction (debug_traceCall). */
  traceCall(input: CallInput, tracer: ExecutionTracer): Promise<CallResult>;
}

/**
 * The node's development accounts (regtest's cow accounts, docs/protocol/networks.md §3): `eth_accounts`,
 * `eth_sendTransaction`, `eth_sign`, `personal_*`. `PrivateKeyWallet` implements it.
 */
export interface DevWallet {
  /** The addresses held, in a stable order. */
  accounts(): Uint8Array[];
  hasAccount(address: Uint8Array): boolean;
  /** Signs a legacy transaction from a held account with the network's chain id. */
  signTransaction(from: Uint8Array, values: TransactionValues): Transaction;
  /**
   * 65 bytes r ‖ s ‖ v (27/28) over keccak256("\x19Ethereum Signed Message:\n" + length + message)
   * (docs/rpc.md §4.4).
   */
  signMessage(from: Uint8Array, message: Uint8Array): Uint8Array;
  /** 65 bytes r ‖ s ‖ v (27/28) over a 32-byte hash the caller computed (eth_signTypedData_v4's EIP-712 hash). */
  signDigest(from: Uint8Array, digest: Uint8Array): Uint8Array;
}

/**
 * Keys kept encrypted on disk (docs/protocol/keystore.md): personal_* key management. Accounts it
 * unlocks sign through the `DevWallet` alongside the dev accounts. The methods that derive a key
 * (scrypt) take the request's `signal`: once it aborts they store and unlock nothing and reject with
 * its reason; they throw `KeystoreBusyError` when too many derivations run and wait
 * (docs/protocol/keystore.md §5).
 */
export interface Keystore {
  /** The addresses of the stored keys, in a stable order. */
  storedAccounts(): Uint8Array[];
  /** A new random key, stored under `passphrase` and unlocked for the default duration. */
  newAccount(passphrase: string, signal?: AbortSignal): Promise<Uint8Array>;
  /** `privateKey` stored under `passphrase` and unlocked for the default duration. */
  importRawKey(privateKey: Uint8Array, passphrase: string, signal?: AbortSignal): Promise<Uint8Array>;
  /** The key keccak256(UTF-8 seed), unlocked until locked and never stored (docs/protocol/keystore.md §3). */
  addSeedAccount(seed: string): Uint8Array;
  /**
   * Decrypts the stored key for `durationMs` (undefined: the default, 0: until locked); false when
   * nothing is stored for `address`. A wrong passphrase or a corrupt file throws a `KeystoreError`.
   */
  unlock(
    address: Uint8Array,
    passphrase: string,
    durationMs: number | undefined,
    signal?: AbortSignal,
  ): Promise<boolean>;
  /** Forgets the decrypted key; whether it was unlocked. */
  lock(address: Uint8Array): boolean;
  /** A wallet of the stored key of `from` decrypted for one use (`personal_sendTransaction`); undefined when none is stored. */
  decryptedWallet(from: Uint8Array, passphrase: string, signal?: AbortSignal): Promise<DevWallet | undefined>;
  /** The private key of an unlocked account; a `KeystoreError` when refused by config or locked. */
  dumpRawKey(address: Uint8Array): Uint8Array;
}

/** Peer information (`net_*`); a node without p2p has none. */
export interface PeersInfo {
  peerCount(): number;
  /** Short peer id, separator, host and port (docs/rpc.md §4.2). */
  peerList(): string[];
  /** Whether the node accepts peer connections. */
  listening(): boolean;
}

/** The p2p layer's queue of received messages (`debug_wireProtocolQueueSize`); a node without p2p has none. */
export interface WireQueue {
  /** Messages peers sent that the p2p layer holds and has not finished handling (docs/rpc.md §4.7). */
  queueSize(): number;
}

/** Peer reputation and bans (`sco_*`, docs/protocol/peer-scoring.md); a node without p2p has none. */
export interface PeerScoringAdmin {
  /** Bans an IP address or CIDR block. */
  banAddress(target: IpAddressOrRange): void;
  /** Lifts the manual ban of the same address or block, in any spelling. */
  unbanAddress(target: IpAddressOrRange): void;
  /** The bans as given. */
  bannedAddresses(): string[];
  /** One entry per scored peer id and address. */
  peerList(): readonly PeerScoringInfo[];
  reputationSummary(): ReputationSummary;
  /** Forgets a peer id or address. */
  clear(peerOrAddress: string): void;
}

/** `admin_nodeInfo`'s answer, geth's shape in xchain's terms (docs/rpc.md §4.2). */
export interface AdminNodeInfo {
  /** The libp2p peer id. */
  id: string;
  name: string;
  /** Where geth gives its enode URL: the first listen multiaddr, which `admin_addPeer` takes. */
  enode: string;
  /** Every listen multiaddr. */
  multiaddrs: string[];
  ip: string;
  ports: {discovery: number; listener: number};
  listenAddr: string;
  protocols: {xchain: {network: number; difficulty: string; genesis: string; head: string}};
}

/** One of `admin_peers`' entries, geth's shape in xchain's terms (docs/rpc.md §4.2). */
export interface AdminPeerInfo {
  /** Where geth gives the enode URL: the peer's multiaddr with `/p2p/<peer id>`. */
  enode: string;
  id: string;
  /** The agent version the peer's libp2p identify announced; empty when unknown. */
  name: string;
  caps: string[];
  network: {remoteAddress: string; inbound: boolean; trusted: boolean; static: boolean};
  protocols: {xchain: {version: number; difficulty: string; head: string; number: string}};
}

/** Peers added and dropped at run time and what the node says of itself (`admin_*`); a node without p2p has none. */
export interface PeerAdmin {
  /**
   * Keeps the peer at `address` (a multiaddr ending in `/p2p/<peer id>`) connected and starts dialling
   * it; throws the p2p package's INVALID_PEER_ADDRESS or TOO_MANY_ADDED_PEERS.
   */
  addPeer(address: string): void;
  /** Stops keeping the peer at `address` and disconnects it (not a bootnode). */
  removePeer(address: string): Promise<void>;
  /** Everything but `name`, which RPC fills with its client version. */
  nodeInfo(): Omit<AdminNodeInfo, "name">;
  peers(): Promise<AdminPeerInfo[]>;
}

/** A sync in progress (docs/rpc.md §2.8). */
export interface SyncStatus {
  startingBlock: number;
  currentBlock: number;
  highestBlock: number;
}

/** Sync progress (`eth_syncing`). */
export interface SyncStatusSource {
  /** Undefined when not syncing. */
  syncStatus(): SyncStatus | undefined;
  /**
   * Calls `listener` when a sync starts (with its status) and when it ends (undefined): the
   * `syncing` subscription. Returns the function that stops it.
   */
  onSyncChange(listener: (status: SyncStatus | undefined) => void): () => void;
}

/** Whether the node should be sent traffic (`GET /ready`, docs/rpc.md §4.1); a reason when not. */
export type Readiness = {ready: true} | {ready: false; reason: string};

/** The node's readiness for `GET /ready`; the RPC server answers `GET /health` itself. */
export interface HealthProbe {
  readiness(): Readiness;
}

/** A log that can be switched on and off while the node runs (the node's transaction log). */
export interface LoggingSwitch {
  enabled: boolean;
}

/**
 * The upstream a forked node forwards its history to (docs/forking.md §5): blocks, transactions, receipts,
 * logs and traces at or below the fork block F, state below it, and hashes the local chain does not hold.
 * `forkHistory(() => source)` makes one of a `ForkSource`.
 */
export interface ForkHistory {
  /** The fork block's number F. */
  readonly forkNumber: number;
  /**
   * The upstream's `result` of `method(params)`, as answered (never parsed); its failures are the state
   * package's `ForkError`s (an error answer relayed as FORK_FORWARDED_ERROR).
   */
  forward(method: string, params: readonly unknown[]): Promise<unknown>;
}

/** A fork as `anvil_metadata`, `hardhat_metadata` and `anvil_nodeInfo` report it (docs/rpc.md §4.10). */
export interface ForkInfo {
  /** The upstream's URL, its user, password, query and key-like path segments redacted. */
  url: string;
  /** The upstream's chain id (the fork may sign with another: `fork.chainId`). */
  upstreamChainId: bigint;
  /** The fork block F. */
  blockNumber: number;
  /** The fork block's hash as the upstream names it (H). */
  blockHash: Uint8Array;
  /** The upstream client's first retry delay in milliseconds (anvil's `forkRetryBackoff`). */
  retryBackoffMs: number;
}

/** What `anvil_reset` with `forking` asks for: another upstream, another fork block, or both. */
export interface ReforkRequest {
  /** The upstream's URL; absent: the current one. */
  jsonRpcUrl?: string;
  /** The fork block; absent: the upstream's head minus the safe depth, as at start. */
  blockNumber?: number;
}

/**
 * The controls of a forked node (docs/forking.md §8): re-fork at another block or upstream, change the
 * upstream, and describe the fork. Absent on a node that is not a fork.
 */
export interface ForkControls {
  info(): ForkInfo;
  /** `anvil_reset` with `forking`: the chain re-anchored on the new fork block, the local blocks gone. */
  reset(request: ReforkRequest): Promise<void>;
  /** `anvil_setRpcUrl`: the same fork read from another upstream (same chain id, serving the fork block). */
  setRpcUrl(url: string): Promise<void>;
}

/**
 * The `db_*` methods' key-value store (docs/rpc.md §4.7): values by database name and key, bounded by
 * `rpc.db`. `DappDb` implements it over the node's database.
 */
export interface DappStore {
  /** The value under `database` and `key`; undefined when none is stored. */
  get(database: string, key: string): Promise<Uint8Array | undefined>;
  /** `get` decoded as UTF-8; bytes that are not UTF-8 throw `DappDbError` NOT_TEXT. */
  getText(database: string, key: string): Promise<string | undefined>;
  /** Stores `value`, replacing what was there; a key, value or total past its bound throws `DappDbError`. */
  put(database: string, key: string, value: Uint8Array): Promise<void>;
}

/** What `RpcServer.start` is given. */
export interface RpcDeps {
  chainspec: Chainspec;
  chain: RpcChain;
  txpool: TxPoolApi;
  /** Absent on a node that does not mine: mining methods answer -32601 "not available". */
  miner?: MinerApi;
  /**
   * The impersonated accounts (docs/rpc.md §4.10), which the txpool admits by: eth_sendTransaction sends
   * for them without a key. Absent: the impersonation methods answer -32601 "not available".
   */
  impersonation?: ImpersonationControls;
  /** The pending block (docs/rpc.md §4.3; the miner builds it). Absent: `pending` reads as `latest`. */
  pendingBlock?: PendingBlockSource;
  executor: CallExecutor;
  /** Absent unless dev accounts are enabled: `eth_accounts` is `[]` and signing methods fail clearly. */
  wallet?: DevWallet;
  /** Absent unless the keystore is enabled: personal_* manage no keys. */
  keystore?: Keystore;
  /** `web3_clientVersion` (see `formatClientVersion`). */
  clientVersion: string;
  /** Default: no peers, not listening (a node without p2p). */
  peers?: PeersInfo;
  /** Default: never syncing. */
  sync?: SyncStatusSource;
  /** Default: nothing queued (a node without p2p). */
  wireQueue?: WireQueue;
  /** Absent without p2p: `sco_*` answer -32601 "not available". */
  scoring?: PeerScoringAdmin;
  /** Absent without p2p: `admin_*` answer -32601 "not available". */
  peerAdmin?: PeerAdmin;
  /** `GET /ready` on the HTTP port; default: always ready. */
  health?: HealthProbe;
  /** The node's transaction log, which anvil_setLoggingEnabled switches (docs/operations.md §4); absent: none. */
  logging?: LoggingSwitch;
  /** A forked node's upstream history (docs/forking.md §5); absent on every other node: nothing is forwarded. */
  forkHistory?: ForkHistory;
  /** A forked node's controls (docs/forking.md §8); absent on every other node: reset onto a fork is refused. */
  forkControls?: ForkControls;
  /** Fork mode only: where the native contracts' raw storage is read. Absent: every address reads the local state. */
  forkNativeStorage?: ForkNativeStorage;
  /** The `db_*` key-value store in the node's database (docs/rpc.md §4.7); absent: db_* answer -32601 "not available". */
  dappDb?: DappStore;
  /** Default: discards everything. */
  logger?: Logger;
}
