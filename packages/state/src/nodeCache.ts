/**
 * Per-entry cost beyond the value bytes: the hex key string, the Map entry, the Uint8Array and its
 * ArrayBuffer. Measured: 100,000 entries of 100, 300 and 532 bytes took 400, 600 and 833 bytes
 * each in the heap and array buffers (it was 160, which let the cache hold 1.3× its budget).
 */
export const NODE_CACHE_ENTRY_OVERHEAD = 300;

/** Hit and size figures of a `NodeCache`. */
export interface NodeCacheStats {
  entries: number;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
}

/**
 * A cache of trie nodes and contract code keyed by their (unprefixed hex) database key, bounded
 * by an approximate byte budget and shared by every session and reader of a `StateDatabase`.
 * Keys are content hashes, so an entry is never stale.
 *
 * Eviction is approximately least-recently-used with two generations: new and hit entries go to
 * the recent one; when it fills half the budget it becomes the old one and the previous old one
 * is dropped. (A single Map refreshed on every hit costs a delete and a re-insert per read, which
 * measured several times slower on a cache of 100k+ nodes.)
 */
export class NodeCache {
  private recent = new Map<string, Uint8Array>();
  private old = new Map<string, Uint8Array>();
  private recentBytes = 0;
  private oldBytes = 0;
  private hits = 0;
  private misses = 0;

  constructor(readonly maxBytes: number) {}

  /** The cached value (kept in the recent generation); undefined on a miss. */
  get(key: string): Uint8Array | undefined {
    const recent = this.recent.get(key);
    if (recent !== undefined) {
      this.hits++;
      return recent;
    }
    const old = this.old.get(key);
    if (old === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.add(key, old);
    return old;
  }

  /** Adds an entry to the recent generation. */
  set(key: string, value: Uint8Array): void {
    if (value.length + NODE_CACHE_ENTRY_OVERHEAD > this.maxBytes / 2 || this.recent.has(key)) return;
    this.add(key, value);
  }

  /** Current size (an entry promoted from the old generation counts twice until it rotates out) and hit counters. */
  stats(): NodeCacheStats {
    return {
      entries: this.recent.size + this.old.size,
      bytes: this.recentBytes + this.oldBytes,
      maxBytes: this.maxBytes,
      hits: this.hits,
      misses: this.misses,
    };
  }

  private add(key: string, value: Uint8Array): void {
    this.recent.set(key, value);
    this.recentBytes += value.length + NODE_CACHE_ENTRY_OVERHEAD;
    if (this.recentBytes >= this.maxBytes / 2) {
      this.old = this.recent;
      this.oldBytes = this.recentBytes;
      this.recent = new Map();
      this.recentBytes = 0;
    }
  }
}
