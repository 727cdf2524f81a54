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
}

/** The defaults: 2,048 headers and 32 MiB of logs (some 60,000 logs of three topics). */
export const defaultChainOptions: ChainOptions = {
  headerCacheSize: 2048,
  logCacheMb: 32,
};
