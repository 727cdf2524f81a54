export {TxPoolError, type TxPoolErrorType} from "./errors.ts";
export {JOURNAL_FILE, type JournalLoadResult, TxJournal, type TxJournalOptions} from "./journal/txJournal.ts";
export {defaultTxPoolOptions, type TxPoolOptions} from "./options.ts";
export {TxPool, type TxPoolModules} from "./txPool.ts";
export {
  type ImpersonationPolicy,
  type TxPoolAddResult,
  type TxPoolApi,
  type TxPoolContent,
  TxPoolErrorCode,
  type TxPoolSnapshot,
} from "./types.ts";
export {POOL_GAS_PRICE_CAP_MULTIPLIER, replacementGasPrice} from "./validate/rules.ts";
