/**
 * One cache's memory against its byte budget, as a component reports it for the node's metrics
 * (`xchain_cache_bytes` and `xchain_cache_budget_bytes`, docs/operations.md §8). `bytes` is the
 * cache's own estimate of what it holds (values, keys and per-entry overhead, measured once in
 * the heap), not a heap measurement.
 */
export interface CacheUsage {
  /** The metric's `cache` label, e.g. "state.trieNodes". */
  readonly cache: string;
  readonly bytes: number;
  readonly budgetBytes: number;
}
