/**
 * The contract of the txpool package: what RPC and the miner use. `TxPool` implements it.
 */
import type {Transaction} from "@xchain/primitives";

/** Why a transaction was refused (docs/protocol/transactions.md); RPC maps every code to -32010 with the message. */
export enum TxPoolErrorCode {
  TOO_LARGE = "TXPOOL_TOO_LARGE",
  DECODE = "TXPOOL_DECODE",
  WRONG_CHAIN_ID = "TXPOOL_WRONG_CHAIN_ID",
  INVALID_SIGNATURE = "TXPOOL_INVALID_SIGNATURE",
  NONCE_TOO_LOW = "TXPOOL_NONCE_TOO_LOW",
  NONCE_TOO_HIGH = "TXPOOL_NONCE_TOO_HIGH",
  INSUFFICIENT_FUNDS = "TXPOOL_INSUFFICIENT_FUNDS",
  GAS_PRICE_TOO_LOW = "TXPOOL_GAS_PRICE_TOO_LOW",
  GAS_PRICE_ABOVE_CAP = "TXPOOL_GAS_PRICE_ABOVE_CAP",
  INTRINSIC_GAS_TOO_LOW = "TXPOOL_INTRINSIC_GAS_TOO_LOW",
  GAS_LIMIT_ABOVE_BLOCK = "TXPOOL_GAS_LIMIT_ABOVE_BLOCK",
  INITCODE_TOO_LARGE = "TXPOOL_INITCODE_TOO_LARGE",
  REMASC_NOT_ACCEPTED = "TXPOOL_REMASC_NOT_ACCEPTED",
  ALREADY_KNOWN = "TXPOOL_ALREADY_KNOWN",
  REPLACEMENT_UNDERPRICED = "TXPOOL_REPLACEMENT_UNDERPRICED",
  POOL_FULL = "TXPOOL_POOL_FULL",
  SENDER_LIMIT = "TXPOOL_SENDER_LIMIT",
  /** The node cannot store blocks (a full disk): nothing it accepts could be mined. */
  STORAGE_UNAVAILABLE = "TXPOOL_STORAGE_UNAVAILABLE",
  /** An impersonated transaction where the node's dev controls are off (docs/rpc.md §4.10). */
  IMPERSONATION_DISABLED = "TXPOOL_IMPERSONATION_DISABLED",
  /** An impersonated transaction from a sender that is not impersonated (docs/rpc.md §4.10). */
  NOT_IMPERSONATED = "TXPOOL_NOT_IMPERSONATED",
  /** An impersonated transaction from the zero address, which sends every block's REMASC transaction. */
  RESERVED_SENDER = "TXPOOL_RESERVED_SENDER",
}

/**
 * Which senders the pool takes impersonated transactions from (their sender carried, not recovered;
 * docs/rpc.md §4.10). The miner's `ImpersonatedAccounts` implements it; a pool without one takes none.
 */
export interface ImpersonationPolicy {
  /** Whether the node's dev controls are on: impersonated transactions are refused otherwise. */
  readonly enabled: boolean;
  /** Whether `sender` is impersonated now (or every sender is: auto-impersonation). */
  allows(sender: Uint8Array): boolean;
}

/** Where an admitted transaction sits. */
export type TxPoolSlot = "pending" | "queued";

/** The outcome of a successful admission. */
export interface TxPoolAddResult {
  hash: Uint8Array;
  slot: TxPoolSlot;
  /** The transaction it replaced (same sender and nonce, higher gas price), if any. */
  replaced?: Transaction;
}

/** Counts for `txpool_status`. */
export interface TxPoolStatus {
  pending: number;
  queued: number;
}

/** Per sender (20-byte address, lower-case hex without 0x), per nonce. */
export interface TxPoolContent {
  pending: Map<string, Map<bigint, Transaction>>;
  queued: Map<string, Map<bigint, Transaction>>;
}

/** The pooled transactions of one moment, pending and queued, oldest first (a dev snapshot, `snapshot.ts`). */
export interface TxPoolSnapshot {
  readonly transactions: readonly Transaction[];
}

/** What RPC and the miner need from the pool. */
export interface TxPoolApi {
  /**
   * Validates and admits a transaction; throws `TxPoolError` with the reason. An impersonated one
   * needs the dev controls on and its sender impersonated (`ImpersonationPolicy`).
   */
  add(tx: Transaction): Promise<TxPoolAddResult>;
  /**
   * Admits an impersonated transaction sent as such (`eth_sendUnsignedTransaction`, which names its
   * sender): as `add`, with the dev controls on whether or not the sender is impersonated.
   */
  addUnsigned(tx: Transaction): Promise<TxPoolAddResult>;
  /** Decodes raw bytes (size limit, legacy only, chain id) and admits them. */
  addRaw(raw: Uint8Array): Promise<TxPoolAddResult>;
  get(hash: Uint8Array): Transaction | undefined;
  /** Executable transactions ordered for a block: by gas price, nonce order per sender. */
  pendingForBlock(): Transaction[];
  /** Every pending transaction (RPC eth_pendingTransactions). */
  pending(): Transaction[];
  /** The next nonce of `sender` counting its pending transactions (eth_getTransactionCount "pending"). */
  nextNonce(sender: Uint8Array): Promise<bigint>;
  status(): TxPoolStatus;
  content(): TxPoolContent;
  /** Fires with each transaction that becomes pending (newPendingTransactions, the autominer). */
  onPending(listener: (tx: Transaction) => void): () => void;
  /** A number that changes whenever the pool's transactions change (admission, replacement, maintenance, eviction). */
  revision(): number;
  /** The pooled transactions now, pending and queued, for a dev snapshot (docs/rpc.md §4.10); O(pool). */
  snapshot(): TxPoolSnapshot;
  /**
   * Empties the pool and admits the snapshot's transactions again at the chain's current head, after
   * every add and maintenance submitted before (a dev revert; see `snapshot.ts`); resolves with how
   * many were admitted.
   */
  restore(snapshot: TxPoolSnapshot): Promise<number>;
  /**
   * Removes one transaction (the dev controls, docs/rpc.md §4.10): its sender's later nonces wait behind the gap
   * it leaves (queued); false when the pool does not hold it.
   */
  drop(hash: Uint8Array): Promise<boolean>;
  /** Removes every transaction of `sender`; returns how many. */
  dropSender(sender: Uint8Array): Promise<number>;
  /** Removes every transaction; returns how many. */
  dropAll(): Promise<number>;
}

/** What maintenance and eviction removed or re-admitted since the pool started (for logs and metrics). */
export interface TxPoolStats {
  /** Dropped because a new best block included them. */
  included: number;
  /** Dropped because the account nonce moved past them (included under another hash, or on another branch). */
  stale: number;
  /** Dropped because the sender's balance no longer pays them together with its lower nonces. */
  unaffordable: number;
  /** Queued transactions dropped after `queuedLifetimeMs`. */
  expired: number;
  /** Evicted from a full pool by a transaction paying a higher gas price. */
  evicted: number;
  /** Transactions of blocks that left the canonical chain, admitted again. */
  readmitted: number;
  /** Transactions of blocks that left the canonical chain, refused on re-admission (dropped silently). */
  readmitRefused: number;
  /** Maintenance runs that failed (a state read failed); the pool stays at its previous head until the next one. */
  maintenanceFailures: number;
}
