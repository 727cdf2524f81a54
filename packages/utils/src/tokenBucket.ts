/**
 * A token bucket: `ratePerSecond` tokens flow in, at most `burst` are kept. Time is the monotonic
 * clock (`performance.now()`), so a wall-clock step (NTP, a suspended VM) neither empties nor
 * refills a bucket, and the refill is computed on each take: no timer per key.
 */

/** Requests per second with a burst. */
export interface RateLimit {
  ratePerSecond: number;
  burst: number;
}

/** One key's bucket. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private limit: RateLimit,
    now: number = performance.now(),
  ) {
    this.tokens = limit.burst;
    this.last = now;
  }

  /** A new rate and burst (the keys file changed); the tokens held are kept, up to the new burst. */
  reconfigure(limit: RateLimit): void {
    this.limit = limit;
    this.tokens = Math.min(this.tokens, limit.burst);
  }

  /**
   * Takes `cost` tokens: 0 when taken, otherwise the milliseconds until they would be there (nothing
   * taken), `Infinity` when `cost` is more than the burst (a bucket never holds that many).
   */
  take(cost: number, now: number = performance.now()): number {
    const {ratePerSecond, burst} = this.limit;
    this.tokens = Math.min(burst, this.tokens + (Math.max(0, now - this.last) * ratePerSecond) / 1000);
    this.last = now;
    if (cost > burst) return Number.POSITIVE_INFINITY;
    if (this.tokens >= cost) {
      this.tokens -= cost;
      return 0;
    }
    return ((cost - this.tokens) * 1000) / ratePerSecond;
  }
}
