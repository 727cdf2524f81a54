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
   * Takes `cost` tokens (at most the burst, so that a batch larger than the burst can pass on a full
   * bucket): 0 when taken, otherwise the milliseconds until they would be there (nothing taken).
   */
  take(cost: number, now: number = performance.now()): number {
    const {ratePerSecond, burst} = this.limit;
    this.tokens = Math.min(burst, this.tokens + (Math.max(0, now - this.last) * ratePerSecond) / 1000);
    this.last = now;
    const needed = Math.min(cost, burst);
    if (this.tokens >= needed) {
      this.tokens -= needed;
      return 0;
    }
    return ((needed - this.tokens) * 1000) / ratePerSecond;
  }
}
