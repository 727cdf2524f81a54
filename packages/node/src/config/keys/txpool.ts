/** The `[txpool]` table: `TxPoolOptions` of @xchain/txpool. */
import type {ConfigKey} from "../configKey.ts";

/** Limits and rules of the transaction pool. */
export const txpoolKeys: readonly ConfigKey[] = [
  {
    key: "txpool.maxTransactions",
    kind: {type: "integer", min: 1, max: 1_000_000},
    description:
      "most transactions in the pool, pending and queued; when full the cheapest is evicted for a dearer one",
  },
  {
    key: "txpool.maxPoolBytes",
    kind: {type: "integer", min: 1, max: 64 * 1024 * 1024 * 1024},
    description:
      "most estimated bytes of the pooled transactions (each its encoding plus 1 KiB); when full the cheapest are evicted for a dearer one",
  },
  {
    key: "txpool.maxTransactionsPerSender",
    kind: {type: "integer", min: 1, max: 1_000_000},
    description: "most transactions of one sender in the pool",
  },
  {
    key: "txpool.maxNonceGap",
    kind: {type: "integer", min: 1, max: 1_000_000},
    description: "how far above the account nonce a transaction's nonce may be",
  },
  {
    key: "txpool.maxTransactionBytes",
    kind: {type: "integer", min: 1, max: 16 * 1024 * 1024},
    description: "largest encoded transaction accepted, in bytes",
  },
  {
    key: "txpool.priceBumpPercent",
    kind: {type: "integer", min: 0, max: 1000},
    description: "extra gas price, in percent, that replaces a pooled transaction of the same sender and nonce",
  },
  {
    key: "txpool.queuedLifetimeMs",
    kind: {type: "integer", min: 1, max: Number.MAX_SAFE_INTEGER},
    description: "how long a transaction behind a nonce gap may wait, in milliseconds",
  },
  {
    key: "txpool.journal",
    kind: {type: "boolean"},
    description:
      "keep the pool's transactions in <dataDir>/txpool.journal across restarts (written on stop and every rejournalSeconds)",
  },
  {
    key: "txpool.rejournalSeconds",
    kind: {type: "integer", min: 1, max: 86_400},
    description: "how often the transaction journal is rewritten while the pool changes, in seconds",
  },
  {
    key: "txpool.journalMaxBytes",
    kind: {type: "integer", min: 1024, max: 1024 * 1024 * 1024},
    description: "largest transaction journal file, in bytes; the cheapest transactions beyond it are not kept",
  },
];
