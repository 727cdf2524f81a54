/**
 * The unpolled entries of one filter (docs/rpc.md §3.2): at most `capacity`, the oldest overwritten
 * beyond it and counted as dropped. A ring, so that a full buffer takes a new entry in constant
 * time (a shifted array costs its length per entry, times every filter).
 */

/** What a poll takes out of a buffer. */
export interface BufferedEntries<T> {
  /** Oldest first. */
  entries: T[];
  /** How many older entries were overwritten since the previous take. */
  dropped: number;
}

/** A bounded FIFO that drops its oldest entry when full. */
export class BoundedBuffer<T> {
  private entries: T[] = [];
  /** Where the oldest entry is once the ring is full (0 before). */
  private head = 0;
  private dropped = 0;

  constructor(private readonly capacity: number) {}

  /** Appends `entry`, overwriting the oldest one when the buffer is full. */
  push(entry: T): void {
    if (this.entries.length < this.capacity) {
      this.entries.push(entry);
      return;
    }
    this.entries[this.head] = entry;
    this.head = (this.head + 1) % this.capacity;
    this.dropped++;
  }

  /** Everything buffered and the count dropped since the last take; leaves the buffer empty. */
  take(): BufferedEntries<T> {
    const {entries, head, dropped} = this;
    this.entries = [];
    this.head = 0;
    this.dropped = 0;
    return {entries: head === 0 ? entries : [...entries.slice(head), ...entries.slice(0, head)], dropped};
  }
}
