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
}

/** The defaults: geth's 10 % price bump and 3 h lifetime; per-sender limits generous enough for dev bursts. */
export const defaultTxPoolOptions: TxPoolOptions = {
  maxTransactions: 8_192,
  maxPoolBytes: 64 * 1024 * 1024,
  maxTransactionsPerSender: 1_024,
  maxNonceGap: 1_024,
  maxTransactionBytes: 128 * 1024,
  priceBumpPercent: 10,
  queuedLifetimeMs: 3 * 60 * 60 * 1000,
};
