/**
 * Per-address limits for a node serving beyond loopback without the API-key gateway (docs/gateway.md,
 * "Per-IP limits"): requests per second with a burst (a token bucket per address) and concurrent TCP
 * connections per address (HTTP keep-alive sockets and WebSockets together). Loopback addresses are
 * not limited: every local program, a reverse proxy included, shares them. An IPv6 address counts by
 * its /64, which one host usually holds whole. The table of addresses is bounded: past
 * `maxAddresses`, the least recently seen addresses without an open connection are dropped (their
 * next request starts on a full bucket), so that a flood of addresses cannot grow memory.
 */
import {isLoopback, parseIp, parseIpAddressOrRange, TokenBucket} from "@xchain/utils";
import type {IpLimitOptions} from "../options.ts";
import {type RateRefusal, rateRefusal} from "./rateLimit.ts";

interface AddressState {
  /** Made at the address's first request: a connection alone holds no bucket. */
  bucket?: TokenBucket;
  connections: number;
}

/** The per-address token buckets and connection counts. */
export class IpLimits {
  private readonly table = new Map<string, AddressState>();
  /** The last address asked about and what it counts as: a client's requests repeat its address. */
  private lastAddress: string | undefined;
  private lastKey: string | undefined;

  constructor(private readonly options: IpLimitOptions) {}

  /** Addresses tracked now (at most `maxAddresses`, plus addresses with a connection open). */
  get size(): number {
    return this.table.size;
  }

  /**
   * Takes a body's tokens from `address`'s bucket (`raw` undefined: a body refused before it runs);
   * the refusal when it is over its rate.
   */
  checkRate(address: string, raw: unknown): RateRefusal | undefined {
    const key = this.keyOf(address);
    if (key === undefined) return undefined;
    const state = this.touch(key);
    const {requestsPerSecond, burst} = this.options;
    state.bucket ??= new TokenBucket({ratePerSecond: requestsPerSecond, burst});
    const {bucket} = state;
    return rateRefusal(raw, (cost) => bucket.take(cost), {requestsPerSecond, burst, sender: () => `address ${key}`});
  }

  /**
   * Counts a new connection from `address`; false, and nothing counted, when the address already
   * holds `maxConnections`. A counted connection must be given back with `closeConnection`.
   */
  openConnection(address: string): boolean {
    const key = this.keyOf(address);
    if (key === undefined) return true;
    const state = this.touch(key);
    if (state.connections >= this.options.maxConnections) return false;
    state.connections++;
    return true;
  }

  /** A connection counted by `openConnection` closed. */
  closeConnection(address: string): void {
    const key = this.keyOf(address);
    const state = key === undefined ? undefined : this.table.get(key);
    if (state) state.connections--;
  }

  /** `limitKey(address)`, remembered for the last address. */
  private keyOf(address: string): string | undefined {
    if (address !== this.lastAddress) {
      this.lastKey = limitKey(address);
      this.lastAddress = address;
    }
    return this.lastKey;
  }

  /** The state of `key`, made most recently seen (a Map keeps insertion order: the oldest come first). */
  private touch(key: string): AddressState {
    let state = this.table.get(key);
    if (state) {
      this.table.delete(key);
    } else {
      this.evict();
      state = {connections: 0};
    }
    this.table.set(key, state);
    return state;
  }

  /** Drops the least recently seen idle addresses until there is room for one more. */
  private evict(): void {
    if (this.table.size < this.options.maxAddresses) return;
    for (const [key, state] of this.table) {
      if (state.connections > 0) continue;
      this.table.delete(key);
      if (this.table.size < this.options.maxAddresses) return;
    }
  }
}

/** What `address` counts as: its canonical text (an IPv6 one's /64), undefined when not limited (loopback). */
function limitKey(address: string): string | undefined {
  const ip = parseIp(address);
  if (ip === undefined || isLoopback(ip.bytes)) return undefined;
  return ip.bytes.length === 4 ? ip.text : (parseIpAddressOrRange(`${ip.text}/64`)?.canonical ?? ip.text);
}
