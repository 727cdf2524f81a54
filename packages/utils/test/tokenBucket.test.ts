import {describe, expect, it} from "vitest";
import {TokenBucket} from "../src/tokenBucket.ts";

describe("TokenBucket", () => {
  it("allows the burst at once, then the rate", () => {
    const bucket = new TokenBucket({ratePerSecond: 10, burst: 3}, 0);
    expect([bucket.take(1, 0), bucket.take(1, 0), bucket.take(1, 0)]).toEqual([0, 0, 0]);
    expect(bucket.take(1, 0)).toBe(100);
    expect(bucket.take(1, 100)).toBe(0);
  });

  it("takes a batch's requests, and never more than the burst", () => {
    const bucket = new TokenBucket({ratePerSecond: 1, burst: 5}, 0);
    expect(bucket.take(50, 0)).toBe(Number.POSITIVE_INFINITY);
    expect(bucket.take(5, 0)).toBe(0);
    expect(bucket.take(2, 0)).toBe(2000);
  });

  it("keeps at most the burst however long it waited, and ignores a clock going back", () => {
    const bucket = new TokenBucket({ratePerSecond: 1000, burst: 2}, 0);
    bucket.take(2, 0);
    expect(bucket.take(2, 1_000_000)).toBe(0);
    expect(bucket.take(1, 500_000)).toBe(1);
  });

  it("keeps its tokens, capped, when reconfigured", () => {
    const bucket = new TokenBucket({ratePerSecond: 1, burst: 10}, 0);
    bucket.reconfigure({ratePerSecond: 1, burst: 1});
    expect(bucket.take(1, 0)).toBe(0);
    expect(bucket.take(1, 0)).toBe(1000);
  });
});
