/**
 * How often each address was admitted to an inbound handshake lately (docs/reliability.md §5): a
 * count that halves every `ADMISSION_HALF_LIFE_MS`, so that an address that keeps opening handshakes
 * (a flooder, reconnecting as soon as it is dropped) stands out from a peer that connects now and
 * then. Bounded: past `MAX_TRACKED_ADDRESSES`, the address admitted longest ago is forgotten.
 */

/** How fast an admission is forgotten: its weight halves in this time. */
export const ADMISSION_HALF_LIFE_MS = 30_000;
/** Addresses remembered at most (a flood from many IPv6 addresses cannot grow the table). */
export const MAX_TRACKED_ADDRESSES = 4_096;

interface Entry {
  /** Admissions, decayed to `at`. */
  count: number;
  at: number;
}

/** Recent admissions per address, on the monotonic clock `now`. */
export class AdmissionHistory {
  // Insertion order is the order of the last admission: the first entry is the one admitted longest ago.
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number) {}

  /**
   * Recent admissions of `address`, rounded to a whole number (0 for one never seen or forgotten):
   * addresses admitted about as often compare equal, and then the oldest handshake goes first.
   */
  recent(address: string): number {
    const entry = this.entries.get(address);
    return entry === undefined ? 0 : Math.round(decayed(entry, this.now()));
  }

  /** Counts an admission of `address`. */
  record(address: string): void {
    const at = this.now();
    const entry = this.entries.get(address);
    const count = (entry === undefined ? 0 : decayed(entry, at)) + 1;
    this.entries.delete(address);
    this.entries.set(address, {count, at});
    if (this.entries.size > MAX_TRACKED_ADDRESSES) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Addresses remembered. */
  get size(): number {
    return this.entries.size;
  }
}

function decayed(entry: Entry, now: number): number {
  return entry.count * 0.5 ** (Math.max(0, now - entry.at) / ADMISSION_HALF_LIFE_MS);
}
