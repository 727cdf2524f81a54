/** The chain's options (the node's `[chain]` table sets them; the log cache in MiB) and their defaults. */

/** The chain's cache sizes; every field is required, start from `defaultChainOptions`. */
export interface ChainOptions {
  /**
   * Decoded headers kept in memory, most recently used first. The default holds the 449 ancestors
   * the fork-detection data of an import reads, with room for side chains. Counted in headers (the
   * imports need that many whatever their size); about 1.3 KiB each (`HEADER_CACHE_ENTRY_BYTES`).
   */
  headerCacheSize: number;
  /** Decoded logs of recently queried blocks kept for eth_getLogs and filters, in MiB (estimated); 0 keeps none. */
  logCacheMb: number;
  /** Which states are kept (the node's `state.mode` and `state.retainBlocks`). */
  retention: StateRetentionOptions;
}

/** `pruned`: the states of the last `retainBlocks` blocks are kept, older ones deleted; `archive`: every state is kept. */
export type StateMode = "pruned" | "archive";

/** Which states the chain keeps (docs/operations.md §12). */
export interface StateRetentionOptions {
  mode: StateMode;
  /**
   * In pruned mode, the blocks below the head and the head whose states are kept (canonical and side
   * blocks alike): the window state queries, traces and reorganizations reach. At least 2.
   */
  retainBlocks: number;
}

/**
 * The default window: 4,096 blocks, past the `finalized` tag's 4,000 (rpc.finalizedDepth, the depth
 * Rootstock's Bridge treats as irreversible) and so the deepest reorganization the node expects, and
 * past trace_filter's 2,000-block range (rpc.trace.maxBlockRange).
 */
export const DEFAULT_RETAIN_BLOCKS = 4096;

/** The fewest blocks a pruned node keeps the state of: the head and its parent (a sibling of the head imports on it). */
export const MIN_RETAIN_BLOCKS = 2;

/** The defaults: 2,048 headers, 32 MiB of logs (some 60,000 logs of three topics), pruned state over 4,096 blocks. */
export const defaultChainOptions: ChainOptions = {
  headerCacheSize: 2048,
  logCacheMb: 32,
  retention: {mode: "pruned", retainBlocks: DEFAULT_RETAIN_BLOCKS},
};
