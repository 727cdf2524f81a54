/** The txpool's options and their defaults (the node's `[txpool]` table mirrors them one to one). */

/** Limits and rules of the pool; every field is required, start from `defaultTxPoolOptions`. */
export interface TxPoolOptions {
  /**
   * Most transactions the pool holds, pending and queued together. When it is full, a new
   * transaction evicts the cheapest evictable one if it pays a strictly higher gas price,
   * otherwise it is refused (POOL_FULL).
   */
  maxTransactions: number;
  /**
   * Most estimated bytes the pooled transactions take (each its encoding plus `POOL_ENTRY_BYTES`
   * for the decoded transaction and the pool's records). Beyond it, as beyond `maxTransactions`,
   * a new transaction evicts the cheapest ones if it pays more than each, else POOL_FULL.
   */
  maxPoolBytes: number;
  /** Most transactions of one sender, pending and queued together (SENDER_LIMIT beyond it). */
  maxTransactionsPerSender: number;
  /**
   * How far ahead of the account nonce a transaction may be: its nonce must be below account
   * nonce + this (NONCE_TOO_HIGH otherwise; rskj's `transaction.accountSlots`).
   */
  maxNonceGap: number;
  /** Largest encoded transaction in bytes (docs/protocol/transactions.md: 128 KB; TOO_LARGE beyond it). */
  maxTransactionBytes: number;
  /**
   * How much more gas price, in percent, a transaction must pay to replace the pooled one of the
   * same sender and nonce (REPLACEMENT_UNDERPRICED otherwise); at least 1 wei more in any case.
   */
  priceBumpPercent: number;
  /** How long a queued transaction (behind a nonce gap) may wait before it is dropped, in milliseconds. */
  queuedLifetimeMs: number;
  /**
   * Keep the pool's transactions (pending and queued, every sender's: the pool does not tell local
   * from remote) in `<dataDir>/txpool.journal` across restarts: written on a clean stop and every
   * `rejournalSeconds`, admitted again at start-up (docs/operations.md §7).
   */
  journal: boolean;
  /** How often the journal is rewritten while the pool changes, in seconds: what a kill -9 may lose. */
  rejournalSeconds: number;
  /** Largest journal file in bytes; the transactions beyond it (the cheapest, then queued ones) are not kept. */
  journalMaxBytes: number;
}

/**
 * The defaults: geth's 10 % price bump and 3 h lifetime; per-sender limits generous enough for dev
 * bursts; the journal on, rewritten every minute (geth: every hour; a write of an unchanged pool is
 * skipped, and a full pool of typical transfers is about 1 MB), within 32 MiB.
 */
export const defaultTxPoolOptions: TxPoolOptions = {
  maxTransactions: 8_192,
  maxPoolBytes: 64 * 1024 * 1024,
  maxTransactionsPerSender: 1_024,
  maxNonceGap: 1_024,
  maxTransactionBytes: 128 * 1024,
  priceBumpPercent: 10,
  queuedLifetimeMs: 3 * 60 * 60 * 1000,
  journal: true,
  rejournalSeconds: 60,
  journalMaxBytes: 32 * 1024 * 1024,
};
