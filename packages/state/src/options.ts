/** The state package's options (the node's `[state]` table sets them, in MiB) and their defaults. */

/** Options of a `StateDatabase`; every field is required, start from `defaultStateOptions`. */
export interface StateOptions {
  /** Approximate byte budget of the trie-node cache shared by all sessions and readers; 0 disables it. */
  nodeCacheBytes: number;
}

/** The defaults: a 256 MiB trie-node cache. */
export const defaultStateOptions: StateOptions = {
  nodeCacheBytes: 256 * 1024 * 1024,
};
