/**
 * A token bucket per peer for the requests we serve: each peer may burst up to `burst` requests,
 * then `perSecond`. The stream caps bound how many requests run at once; this bounds how often, so
 * one peer cannot keep the node reading blocks for it. The number of buckets is bounded too (the
 * oldest is dropped: a peer coming back starts with a full bucket, which the caps still bound).
 */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/** Enough for a sync at full speed (a few header and body requests a second) with room to spare. */
export const DEFAULT_REQUEST_RATE: RateLimit = {perSecond: 50, burst: 100};

const MAX_BUCKETS = 4096;

interface Bucket {
  tokens: number;
  updatedMs: number;
}

export class RequestRateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limit: RateLimit = DEFAULT_REQUEST_RATE,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a token for `peer`; false when its bucket is empty (the request is refused). */
  take(peer: string): boolean {
    const now = this.now();
    let bucket = this.buckets.get(peer);
    if (bucket === undefined) {
      if (this.buckets.size >= MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value as string);
      bucket = {tokens: this.limit.burst, updatedMs: now};
      this.buckets.set(peer, bucket);
    } else {
      const refill = ((now - bucket.updatedMs) / 1000) * this.limit.perSecond;
      bucket.tokens = Math.min(this.limit.burst, bucket.tokens + refill);
      bucket.updatedMs = now;
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Forgets a peer (it disconnected). */
  forget(peer: string): void {
    this.buckets.delete(peer);
  }
}
