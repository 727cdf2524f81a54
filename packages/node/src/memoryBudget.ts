/**
 * The node's memory budget (docs/operations.md §8): how the `[state]` and `[db]` budgets are
 * shared out among the main thread's state, block assembly and the call workers, and every cache's
 * memory against its budget for the `xchain_cache_bytes` metrics.
 */
import type {StateOptions} from "@xchain/state";
import type {CacheUsage} from "@xchain/utils";
import type {NodeOptions} from "./options.ts";

const MIB = 1024 * 1024;

/** The share of the `[state]` budgets that block assembly and each call worker get. */
export const SECONDARY_STATE_SHARE = 1 / 4;

/**
 * The state options of the main thread's state (`share` 1) or of block assembly and a call worker.
 * `recordPreimages` where the dev controls are on (the states that commit: the chain's and block assembly's).
 */
export function stateOptions(state: NodeOptions["state"], share: number, recordPreimages = false): StateOptions {
  return {
    recordPreimages,
    nodeCacheBytes: Math.floor(state.cacheMb * MIB * share),
    codeCacheBytes: Math.floor(state.codeCacheMb * MIB * share),
    readerCacheBytes: Math.floor(state.readerCacheMb * MIB * share),
    flatState: state.flat,
  };
}

/** LevelDB's open options. */
export function levelDbMemory(db: NodeOptions["db"]): {cacheBytes: number; writeBufferBytes: number} {
  return {cacheBytes: db.cacheMb * MIB, writeBufferBytes: db.writeBufferMb * MIB};
}

/** LevelDB's memory (block cache and memtables, its own estimate) against its budget: the cache and two write buffers. */
export function levelDbUsage(db: NodeOptions["db"], memoryBytes: number): CacheUsage {
  return {cache: "leveldb", bytes: memoryBytes, budgetBytes: (db.cacheMb + 2 * db.writeBufferMb) * MIB};
}

/** The usages of one cache name summed (the call workers each report their own). */
export function sumByCache(usages: readonly CacheUsage[]): CacheUsage[] {
  const sums = new Map<string, {bytes: number; budgetBytes: number}>();
  for (const {cache, bytes, budgetBytes} of usages) {
    const sum = sums.get(cache) ?? {bytes: 0, budgetBytes: 0};
    sum.bytes += bytes;
    sum.budgetBytes += budgetBytes;
    sums.set(cache, sum);
  }
  return [...sums].map(([cache, sum]) => ({cache, ...sum}));
}

/** The components whose caches the node reports (`nodeCacheUsage`). */
export interface CacheHolders {
  state: {cacheUsage(prefix: string): CacheUsage[]};
  assemblerState: {cacheUsage(prefix: string): CacheUsage[]};
  /** The call worker pool; undefined when calls run on the main thread. */
  calls: {cacheUsage(): CacheUsage[]};
  chain: {cacheUsage(): CacheUsage[]};
  txpool: {cacheUsage(): CacheUsage};
  rpc: {callCacheStats(): {bytes: number}; blockCacheStats(): {bytes: number}};
  db: {memoryBytes(): number};
}

/** Every cache of the node against its budget, one entry per cache name (`xchain_cache_bytes`). */
export function nodeCacheUsage(opts: Pick<NodeOptions, "rpc" | "db">, holders: CacheHolders): CacheUsage[] {
  const {state, assemblerState, calls, chain, txpool, rpc, db} = holders;
  return sumByCache([
    ...state.cacheUsage("state"),
    ...assemblerState.cacheUsage("assembler"),
    ...calls.cacheUsage(),
    ...chain.cacheUsage(),
    txpool.cacheUsage(),
    {cache: "rpc.callAnswers", bytes: rpc.callCacheStats().bytes, budgetBytes: opts.rpc.callCacheBytes},
    {cache: "rpc.blocks", bytes: rpc.blockCacheStats().bytes, budgetBytes: opts.rpc.blockCacheBytes},
    levelDbUsage(opts.db, db.memoryBytes()),
  ]);
}
