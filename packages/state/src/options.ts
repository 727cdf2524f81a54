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
  /**
   * Whether readers read the flat state of the head first (docs/operations.md §13), and whether the
   * chain keeps it (generates it, follows the head). Off: every read walks the trie, nothing is written.
   */
  flatState: boolean;
}

/** The defaults: a 256 MiB trie-node cache, 16 MiB of code and 32 MiB for the readers; no preimages; the flat state on. */
export const defaultStateOptions: StateOptions = {
  nodeCacheBytes: 256 * 1024 * 1024,
  codeCacheBytes: 16 * 1024 * 1024,
  readerCacheBytes: 32 * 1024 * 1024,
  recordPreimages: false,
  flatState: true,
};

/** How the fork's `UpstreamClient` talks to its upstream (docs/forking.md §1.3). */
export interface UpstreamClientOptions {
  /**
   * JSON-RPC calls a second at most (a batch of n counts n); 0 for no limit; undefined: none for an
   * upstream on loopback, `REMOTE_UPSTREAM_REQUESTS_PER_SECOND` (100) for any other (`upstreamPace`).
   */
  requestsPerSecond: number | undefined;
  /** Calls per batch request at most. */
  batchSize: number;
  /** Retries of a transient failure (429, -32005, 5xx, a timeout, a refused connection) before a read fails. */
  retries: number;
  /** Time allowed for one HTTP request, in milliseconds. */
  timeoutMs: number;
}

/** Whether fetched accounts and slots are checked against the fork block's state root (docs/forking.md §1.4). */
export type ForkVerifyMode = "auto" | "on" | "off";

/** What a `ForkSource` reads, where it caches it and how (docs/forking.md §1). */
export interface ForkSourceOptions extends UpstreamClientOptions {
  /** The upstream's JSON-RPC URL (credentials in it never reach a log, an error or the cache). */
  url: string;
  /** The fork block: its number or its 32-byte hash; undefined: the upstream's head minus `safeDepth`. */
  block: number | Uint8Array | undefined;
  /** Blocks below the upstream's head the default fork block is (so that it is unlikely to be reorganized away). */
  safeDepth: number;
  /** The cache's directory (a LevelDB database). */
  cacheDir: string;
  /** Answer from the cache only: no request; a value the cache does not hold is an OFFLINE_MISS. */
  offline: boolean;
  /** Proof verification: `auto` when the upstream serves eth_getProof, `on` required, `off` never. */
  verify: ForkVerifyMode;
}

/** The defaults of everything but the URL, the block and the cache directory. */
export const defaultForkSourceOptions: Omit<ForkSourceOptions, "url" | "block" | "cacheDir"> = {
  requestsPerSecond: undefined,
  batchSize: 50,
  retries: 5,
  timeoutMs: 20_000,
  safeDepth: 12,
  offline: false,
  verify: "auto",
};
