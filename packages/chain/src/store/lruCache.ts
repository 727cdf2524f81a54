/** A least-recently-used map with a bounded number of entries. */
export class LruCache<K, V> {
  // A Map iterates in insertion order: re-inserting on a hit keeps the oldest entry first.
  private readonly entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {}

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** The cached value, refreshed as most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** Adds or refreshes an entry, evicting the least recently used one beyond the bound. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}
