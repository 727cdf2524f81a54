import {describe, expect, it} from "vitest";
import {IpLimits} from "../../src/limits/ipLimits.ts";
import type {IpLimitOptions} from "../../src/options.ts";

const OPTIONS: IpLimitOptions = {enabled: true, requestsPerSecond: 1, burst: 2, maxConnections: 2, maxAddresses: 3};
const call = {jsonrpc: "2.0", id: 7, method: "eth_blockNumber"};

describe("IpLimits", () => {
  it("answers 429 with Retry-After and -32005 per request once an address is past its burst", () => {
    const limits = new IpLimits(OPTIONS);
    expect(limits.checkRate("10.0.0.1", call)).toBeUndefined();
    expect(limits.checkRate("10.0.0.1", call)).toBeUndefined();
    const refusal = limits.checkRate("10.0.0.1", [call, {...call, id: 8}]);
    expect(refusal?.httpStatus).toBe(429);
    expect(refusal?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    const body = JSON.parse(refusal?.payload.toString() ?? "");
    expect(body.map((r: {id: number}) => r.id)).toEqual([7, 8]);
    expect(body[0].error).toMatchObject({code: -32005, message: expect.stringMatching(/limit exceeded.*10\.0\.0\.1/)});
    // Another address has its own bucket; an IPv4-mapped spelling is the same address.
    expect(limits.checkRate("10.0.0.2", call)).toBeUndefined();
    expect(limits.checkRate("::ffff:10.0.0.1", call)?.httpStatus).toBe(429);
  });

  it("charges a body refused before it runs one token, and refuses a batch over the burst at once", () => {
    const limits = new IpLimits({...OPTIONS, burst: 5});
    const overBurst = limits.checkRate(
      "10.0.0.1",
      Array.from({length: 6}, (_, i) => ({...call, id: i})),
    );
    expect(overBurst?.httpStatus).toBe(400);
    expect(overBurst?.retryAfterSeconds).toBeUndefined();
    expect(JSON.parse(overBurst?.payload.toString() ?? "")[5]).toMatchObject({
      id: 5,
      error: {
        code: -32005,
        message: "limit exceeded: a batch of 6 requests is more than the burst of 5 for address 10.0.0.1",
      },
    });
    for (let i = 0; i < 4; i++) expect(limits.checkRate("10.0.0.1", undefined)).toBeUndefined();
    expect(limits.checkRate("10.0.0.1", call)?.httpStatus).toBe(429);
  });

  it("does not limit loopback clients", () => {
    const limits = new IpLimits(OPTIONS);
    for (let i = 0; i < 10; i++) {
      expect(limits.checkRate("127.0.0.1", call)).toBeUndefined();
      expect(limits.checkRate("::1", call)).toBeUndefined();
      expect(limits.openConnection("::ffff:127.0.0.1")).toBe(true);
    }
    expect(limits.size).toBe(0);
  });

  it("caps the connections of one address and gives closed ones back", () => {
    const limits = new IpLimits(OPTIONS);
    expect(limits.openConnection("10.0.0.1")).toBe(true);
    expect(limits.openConnection("10.0.0.1")).toBe(true);
    expect(limits.openConnection("10.0.0.1")).toBe(false);
    expect(limits.openConnection("10.0.0.2")).toBe(true);
    limits.closeConnection("10.0.0.1");
    expect(limits.openConnection("10.0.0.1")).toBe(true);
  });

  it("counts an IPv6 address by its /64", () => {
    const limits = new IpLimits(OPTIONS);
    expect(limits.openConnection("2001:db8:1:2::1")).toBe(true);
    expect(limits.openConnection("2001:db8:1:2:ffff::9")).toBe(true);
    expect(limits.openConnection("2001:db8:1:2:abcd::1")).toBe(false);
    expect(limits.openConnection("2001:db8:1:3::1")).toBe(true);
  });

  it("keeps at most maxAddresses idle addresses, dropping the least recently seen", () => {
    const limits = new IpLimits(OPTIONS);
    expect(limits.openConnection("10.0.0.1")).toBe(true);
    for (let i = 0; i < 1_000; i++) limits.checkRate(`10.1.${i >> 8}.${i & 255}`, call);
    // The address with an open connection is kept; the idle ones fill the rest.
    expect(limits.size).toBe(3);
    expect(limits.openConnection("10.0.0.1")).toBe(true);
    expect(limits.openConnection("10.0.0.1")).toBe(false);
    // A forgotten address starts again on a full bucket.
    limits.checkRate("10.9.9.9", call);
    limits.checkRate("10.9.9.9", call);
    expect(limits.checkRate("10.9.9.9", call)).toBeDefined();
    for (let i = 0; i < 3; i++) limits.checkRate(`10.2.0.${i}`, call);
    expect(limits.checkRate("10.9.9.9", call)).toBeUndefined();
  });
});
