/**
 * Admission of inbound connections before any crypto (docs/p2p.md, "Inbound admission"): the
 * handshakes still pending are counted per remote address, per network (/24 for IPv4, /48 for
 * IPv6) and in all. An address at its own limit is refused. When its network or the whole budget is
 * full, a newcomer whose address has nothing pending takes the slot of the oldest handshake of the
 * busiest address (in its network) or network (in all): stalled handshakes are the oldest, so a
 * flood of them cannot keep out a peer that completes its handshake in a few milliseconds, while a
 * flooder gains nothing by opening more. Within a network, "busiest" is the most handshakes pending,
 * then the most admitted lately (`AdmissionHistory`); a newcomer evicts only an address busier than
 * itself, so that a flood from many addresses of a peer's own /24, each holding one handshake and
 * retrying as soon as it is dropped, cannot evict the peer's handshake before it completes (it did,
 * oldest first, within a few retries). Loopback is not exempt; trusted addresses (bootnodes) are.
 */
import {parseIp} from "@xchain/utils";
import {AdmissionHistory} from "./admissionHistory.ts";

/** The limits of pending inbound handshakes. */
export interface AdmissionLimits {
  /** Per remote address. */
  perAddress: number;
  /** Per /24 (IPv4) or /48 (IPv6). */
  perNetwork: number;
  /** In all. */
  total: number;
}

/** A pending handshake's place; `release` (idempotent) frees it when the handshake ends either way. */
export interface AdmissionTicket {
  release(): void;
}

interface Pending {
  address: string;
  network: string;
  /** Drops the connection when a newcomer takes its slot. */
  evict(): void;
}

/**
 * The /24 or /48 an address lies in (`"10.1.2.0/24"`, `"2001:db8:1::/48"`; IPv4-mapped IPv6 counts
 * as IPv4), or the text itself when it is no IP literal.
 */
export function networkOf(address: string): string {
  const ip = parseIp(address);
  if (ip === undefined) return address;
  const b = ip.bytes;
  if (b.length === 4) return `${b[0]}.${b[1]}.${b[2]}.0/24`;
  const group = (i: number): string => ((b[i]! << 8) | b[i + 1]!).toString(16);
  return `${group(0)}:${group(2)}:${group(4)}::/48`;
}

export class InboundAdmission {
  // Insertion order is age order: the first entry of a group is its oldest handshake.
  private readonly pending = new Map<number, Pending>();
  private readonly history: AdmissionHistory;
  private nextId = 0;

  /** `now`: the monotonic clock the history decays on (milliseconds). */
  constructor(
    private readonly limits: AdmissionLimits,
    private readonly trusted: (address: string) => boolean = () => false,
    now: () => number = () => performance.now(),
  ) {
    this.history = new AdmissionHistory(now);
  }

  /**
   * Admits a handshake from `address` (its text as the IP literal), or refuses it (undefined).
   * `evict` is called if a later newcomer takes this slot before it is released.
   */
  admit(address: string, evict: () => void): AdmissionTicket | undefined {
    if (this.trusted(address)) return {release: () => undefined};
    const network = networkOf(address);
    const entries = [...this.pending.values()];
    const own = entries.filter((p) => p.address === address).length;
    if (own >= this.limits.perAddress) return undefined;
    const inNetwork = entries.filter((p) => p.network === network);
    if (inNetwork.length >= this.limits.perNetwork && !this.makeRoomInNetwork(address, own, inNetwork)) {
      return undefined;
    }
    if (this.pending.size >= this.limits.total && !this.makeRoom(own, [...this.pending.values()], (p) => p.network)) {
      return undefined;
    }
    const id = this.nextId++;
    this.pending.set(id, {address, network, evict});
    this.history.record(address);
    return {release: () => this.pending.delete(id)};
  }

  /** Pending handshakes in all (trusted ones are not counted). */
  get size(): number {
    return this.pending.size;
  }

  /** Pending handshakes from one address. */
  pendingFrom(address: string): number {
    let count = 0;
    for (const p of this.pending.values()) if (p.address === address) count++;
    return count;
  }

  /**
   * Evicts, for a newcomer from `address` with nothing pending (`own` 0), the oldest handshake of
   * the busiest address of its full network: the most pending, then the most admitted lately. Only
   * an address busier than the newcomer will be gives up its slot: one with two pending, or one with
   * one pending admitted more often lately than the newcomer.
   */
  private makeRoomInNetwork(address: string, own: number, inNetwork: Pending[]): boolean {
    if (own > 0) return false;
    const counts = new Map<string, number>();
    for (const p of inNetwork) counts.set(p.address, (counts.get(p.address) ?? 0) + 1);
    // The first handshake (the oldest) of the busiest address: later ones replace it only when busier.
    let victim: {p: Pending; count: number; recent: number} | undefined;
    for (const p of inNetwork) {
      const count = counts.get(p.address) ?? 0;
      const recent = this.history.recent(p.address);
      if (victim === undefined || count > victim.count || (count === victim.count && recent > victim.recent)) {
        victim = {p, count, recent};
      }
    }
    if (victim === undefined) return false;
    if (victim.count < 2 && victim.recent <= this.history.recent(address)) return false;
    const chosen = victim.p;
    return this.evictOldest((p) => p === chosen);
  }

  /** Evicts the oldest pending handshake that `matches`; false when none does. */
  private evictOldest(matches: (p: Pending) => boolean): boolean {
    for (const [id, p] of this.pending) {
      if (!matches(p)) continue;
      this.pending.delete(id);
      p.evict();
      return true;
    }
    return false;
  }

  /**
   * Evicts the oldest handshake of the group (by `groupOf`) with the most of `scope`, for a newcomer
   * with nothing pending (`own` 0); an address already waiting on a handshake waits for it instead.
   */
  private makeRoom(own: number, scope: Pending[], groupOf: (p: Pending) => string): boolean {
    if (own > 0 || scope.length === 0) return false;
    const counts = new Map<string, number>();
    for (const p of scope) counts.set(groupOf(p), (counts.get(groupOf(p)) ?? 0) + 1);
    const most = Math.max(...counts.values());
    return this.evictOldest((p) => counts.get(groupOf(p)) === most && scope.includes(p));
  }
}
