/** The chain's options (the node's `[chain]` table mirrors them one to one) and their defaults. */

/** The chain's cache sizes; every field is required, start from `defaultChainOptions`. */
export interface ChainOptions {
  /**
   * Decoded headers kept in memory, most recently used first. The default holds the 449 ancestors
   * the fork-detection data of an import reads, with room for side chains.
   */
  headerCacheSize: number;
  /** Decoded logs of recently queried blocks kept for eth_getLogs and filters, counted in logs (about 0.5 KiB each). */
  logCacheSize: number;
}

/** The defaults: 2,048 headers and 100,000 logs. */
export const defaultChainOptions: ChainOptions = {
  headerCacheSize: 2048,
  logCacheSize: 100_000,
};
