import {describe, expect, it} from "vitest";
import {RequestRateLimiter} from "../src/rateLimit.ts";

describe("RequestRateLimiter", () => {
  it("allows a burst, then refills at the rate, per peer", () => {
    let now = 0;
    const limiter = new RequestRateLimiter({perSecond: 10, burst: 3}, () => now);
    expect([1, 2, 3, 4].map(() => limiter.take("a"))).toEqual([true, true, true, false]);
    expect(limiter.take("b")).toBe(true);
    now = 100; // one token back
    expect(limiter.take("a")).toBe(true);
    expect(limiter.take("a")).toBe(false);
    now = 10_000; // never more than the burst
    expect([1, 2, 3, 4].map(() => limiter.take("a"))).toEqual([true, true, true, false]);
  });

  it("forgets a peer: it comes back with a full bucket", () => {
    const limiter = new RequestRateLimiter({perSecond: 1, burst: 1}, () => 0);
    expect(limiter.take("a")).toBe(true);
    expect(limiter.take("a")).toBe(false);
    limiter.forget("a");
    expect(limiter.take("a")).toBe(true);
  });
});
