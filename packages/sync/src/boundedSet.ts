/**
 * Small bounded collections for recently seen hashes: insertion order is eviction order (FIFO),
 * which is all gossip deduplication needs (an entry that is seen again is usually seen soon).
 */

/** A set of at most `capacity` strings; adding beyond it forgets the oldest. */
export class BoundedSet {
  private readonly items = new Set<string>();

  constructor(private readonly capacity: number) {}

  has(key: string): boolean {
    return this.items.has(key);
  }

  add(key: string): void {
    if (this.items.has(key)) return;
    this.items.add(key);
    if (this.items.size > this.capacity) {
      const oldest = this.items.values().next().value as string;
      this.items.delete(oldest);
    }
  }

  delete(key: string): void {
    this.items.delete(key);
  }

  get size(): number {
    return this.items.size;
  }
}

/** Counts per key for at most `capacity` keys; counting a new key beyond it forgets the oldest. */
export class BoundedCounter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly capacity: number) {}

  /** Adds one to `key`'s count and returns the new count. */
  increment(key: string): number {
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    if (this.counts.size > this.capacity) {
      const oldest = this.counts.keys().next().value as string;
      this.counts.delete(oldest);
    }
    return count;
  }

  get size(): number {
    return this.counts.size;
  }
}
