/** The state package's options (the node's `[state]` table sets them, in MiB) and their defaults. */

/**
 * Byte budgets of a `StateDatabase`'s caches (docs/operations.md §8); every field is required,
 * start from `defaultStateOptions`. Each is an estimate of what the cache holds in the heap (values,
 * keys and per-entry overhead); 0 disables the cache.
 */
export interface StateOptions {
  /** The trie-node cache shared by all sessions and readers. */
  nodeCacheBytes: number;
  /** Contract code by code hash, shared by the readers. */
  codeCacheBytes: number;
  /** The account and storage caches of the recent readers (the head's and a few before), in all. */
  readerCacheBytes: number;
  /**
   * Whether commits also write the preimage of every account and slot key they write (bucket
   * `preimage`), so that the state can be listed by address and slot (a dev node's state dump,
   * docs/rpc.md §4.10). Off by default: it adds writes to every block.
   */
  recordPreimages: boolean;
}

/** The defaults: a 256 MiB trie-node cache, 16 MiB of code and 32 MiB for the readers; no preimages. */
export const defaultStateOptions: StateOptions = {
  nodeCacheBytes: 256 * 1024 * 1024,
  codeCacheBytes: 16 * 1024 * 1024,
  readerCacheBytes: 32 * 1024 * 1024,
  recordPreimages: false,
};
