/** Pending inbound handshakes: limits per address, per /24 or /48, in all, eviction of the oldest, trusted addresses. */
import {describe, expect, it} from "vitest";
import {type AdmissionTicket, InboundAdmission, networkOf} from "../src/admission.ts";

const LIMITS = {perAddress: 2, perNetwork: 4, total: 6};

/** Admits from `address`, recording in `evicted` when its slot is taken. */
function admitter(admission: InboundAdmission, evicted: string[]) {
  let n = 0;
  return (address: string): AdmissionTicket | undefined => {
    const name = `${address}#${n++}`;
    return admission.admit(address, () => evicted.push(name));
  };
}

describe("networkOf", () => {
  it("groups IPv4 by /24 and IPv6 by /48, IPv4-mapped IPv6 as IPv4", () => {
    expect(networkOf("10.1.2.3")).toBe("10.1.2.0/24");
    expect(networkOf("::ffff:10.1.2.200")).toBe("10.1.2.0/24");
    expect(networkOf("2001:db8:1:2::5")).toBe("2001:db8:1::/48");
    expect(networkOf("2001:db8:1:ffff::9")).toBe("2001:db8:1::/48");
    expect(networkOf("not-an-ip")).toBe("not-an-ip");
  });
});

describe("InboundAdmission", () => {
  it("refuses a third pending handshake from one address, loopback included, and admits again on release", () => {
    const admission = new InboundAdmission(LIMITS);
    const evicted: string[] = [];
    const admit = admitter(admission, evicted);
    const first = admit("127.0.0.1");
    expect(first).toBeDefined();
    expect(admit("127.0.0.1")).toBeDefined();
    expect(admit("127.0.0.1")).toBeUndefined();
    first?.release();
    first?.release();
    expect(admission.pendingFrom("127.0.0.1")).toBe(1);
    expect(admit("127.0.0.1")).toBeDefined();
    expect(evicted).toEqual([]);
  });

  it("a full network: a new address takes the slot of the busiest address's oldest handshake", () => {
    const admission = new InboundAdmission(LIMITS);
    const evicted: string[] = [];
    const admit = admitter(admission, evicted);
    admit("10.0.0.1");
    admit("10.0.0.2");
    admit("10.0.0.2");
    admit("10.0.0.3");
    expect(admission.size).toBe(4);
    // 10.0.0.2 holds two: its older one goes.
    expect(admit("10.0.0.9")).toBeDefined();
    expect(evicted).toEqual(["10.0.0.2#1"]);
    // An address already waiting on a handshake is refused rather than evicting anyone.
    expect(admit("10.0.0.9")).toBeUndefined();
    // All hold one now: the oldest goes.
    expect(admit("10.0.0.10")).toBeDefined();
    expect(evicted).toEqual(["10.0.0.2#1", "10.0.0.1#0"]);
    expect(admission.size).toBe(4);
    // Another network is not touched by the first one's limit.
    expect(admit("10.0.1.1")).toBeDefined();
    expect(evicted).toHaveLength(2);
  });

  it("a full budget: a newcomer takes the slot of the busiest network's oldest handshake", () => {
    const admission = new InboundAdmission(LIMITS);
    const evicted: string[] = [];
    const admit = admitter(admission, evicted);
    admit("192.168.0.1");
    for (const address of ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"]) admit(address);
    admit("172.16.0.1");
    expect(admission.size).toBe(6);
    expect(admit("2001:db8::1")).toBeDefined();
    expect(evicted).toEqual(["10.0.0.1#1"]);
    expect(admission.size).toBe(6);
  });

  it("a released or evicted handshake frees its slot once", () => {
    const admission = new InboundAdmission({perAddress: 1, perNetwork: 1, total: 1});
    const evicted: string[] = [];
    const admit = admitter(admission, evicted);
    const first = admit("10.0.0.1");
    expect(admit("10.0.1.1")).toBeDefined();
    expect(evicted).toEqual(["10.0.0.1#0"]);
    first?.release();
    expect(admission.size).toBe(1);
  });

  it("does not count trusted addresses", () => {
    const admission = new InboundAdmission({perAddress: 1, perNetwork: 1, total: 1}, (a) => a === "10.0.0.5");
    const admit = admitter(admission, []);
    expect(admit("10.0.0.1")).toBeDefined();
    for (let i = 0; i < 5; i++) expect(admit("10.0.0.5")).toBeDefined();
    expect(admission.size).toBe(1);
    expect(admit("10.0.0.1")).toBeUndefined();
  });
});
