/** Pending inbound handshakes: limits per address, per /24 or /48, in all, eviction of the oldest, trusted addresses. */
import {describe, expect, it} from "vitest";
import {type AdmissionTicket, InboundAdmission, networkOf} from "../src/admission.ts";
import {ADMISSION_HALF_LIFE_MS, AdmissionHistory, MAX_TRACKED_ADDRESSES} from "../src/admissionHistory.ts";

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
    // All hold one now: the address admitted most lately (10.0.0.2, twice) gives up its slot.
    expect(admit("10.0.0.10")).toBeDefined();
    expect(evicted).toEqual(["10.0.0.2#1", "10.0.0.2#2"]);
    // Then, all admitted once, the oldest goes for an address never admitted.
    expect(admit("10.0.0.11")).toBeDefined();
    expect(evicted).toEqual(["10.0.0.2#1", "10.0.0.2#2", "10.0.0.1#0"]);
    // An address admitted as often as every holder takes no one's slot.
    expect(admit("10.0.0.1")).toBeUndefined();
    expect(admission.size).toBe(4);
    // Another network is not touched by the first one's limit.
    expect(admit("10.0.1.1")).toBeDefined();
    expect(evicted).toHaveLength(3);
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

describe("InboundAdmission under a flood from a peer's own /24", () => {
  const LIVE = {perAddress: 2, perNetwork: 8, total: 64};

  /** 250 flood addresses in 10.0.0.0/24 that retry whenever they hold nothing; a ticket per address. */
  function flood(admission: InboundAdmission) {
    const held = new Map<string, AdmissionTicket>();
    const addresses = Array.from({length: 250}, (_, i) => `10.0.0.${i + 2}`);
    /** One round: every flood address without a pending handshake tries again. */
    const round = (): void => {
      for (const address of addresses) {
        if (held.has(address)) continue;
        const ticket = admission.admit(address, () => held.delete(address));
        if (ticket) held.set(address, ticket);
      }
    };
    /** Their handshakes stall and time out: every slot they hold is freed. */
    const timeOut = (): void => {
      for (const ticket of held.values()) ticket.release();
      held.clear();
    };
    return {round, timeOut, held};
  }

  it("admits a peer with nothing pending, and the flood's retries do not evict it before it completes", () => {
    // The clock moves 100 ms a round (flood sockets reconnect every 50 ms), 3 s a handshake timeout.
    let now = 0;
    const admission = new InboundAdmission(
      LIVE,
      () => false,
      () => now,
    );
    const {round: oneRound, timeOut} = flood(admission);
    const round = () => {
      oneRound();
      now += 100;
    };
    for (let i = 0; i < 5; i++) {
      round();
      timeOut();
      now += 3_000;
      round();
    }
    expect(admission.size).toBe(LIVE.perNetwork);
    let evicted = false;
    const peer = admission.admit("10.0.0.1", () => {
      evicted = true;
    });
    expect(peer).toBeDefined();
    // While the peer's Noise handshake runs, the flood keeps retrying.
    for (let i = 0; i < 20; i++) round();
    expect(evicted).toBe(false);
    expect(admission.pendingFrom("10.0.0.1")).toBe(1);
    // A flood address holding two is still evicted first, and gains nothing by opening more.
    expect(admission.size).toBe(LIVE.perNetwork);
  });
});

describe("AdmissionHistory", () => {
  it("counts admissions lately, forgetting them as time passes", () => {
    let now = 0;
    const history = new AdmissionHistory(() => now);
    for (let i = 0; i < 3; i++) history.record("10.0.0.1");
    expect(history.recent("10.0.0.1")).toBe(3);
    expect(history.recent("10.0.0.2")).toBe(0);
    now = ADMISSION_HALF_LIFE_MS;
    expect(history.recent("10.0.0.1")).toBe(2);
    history.record("10.0.0.1");
    expect(history.recent("10.0.0.1")).toBe(3);
    now += 5 * ADMISSION_HALF_LIFE_MS;
    expect(history.recent("10.0.0.1")).toBe(0);
  });

  it("remembers a bounded number of addresses, forgetting the one admitted longest ago", () => {
    const history = new AdmissionHistory(() => 0);
    history.record("first");
    for (let i = 0; i < MAX_TRACKED_ADDRESSES; i++) history.record(`2001:db8::${i.toString(16)}`);
    expect(history.size).toBe(MAX_TRACKED_ADDRESSES);
    expect(history.recent("first")).toBe(0);
    expect(history.recent("2001:db8::0")).toBe(1);
  });
});
