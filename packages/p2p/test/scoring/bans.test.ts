/** Manual bans (sco_banAddress / sco_unbanAddress / sco_bannedAddresses): addresses and CIDR blocks. */
import {describe, expect, it} from "vitest";
import {P2PError, P2PErrorCode} from "../../src/errors.ts";
import {PeerScoringManager, parseBanTarget} from "../../src/scoring/index.ts";
import {PeerEvent} from "../../src/types.ts";

function banError(attempt: () => void): P2PError {
  let caught: unknown;
  try {
    attempt();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(P2PError);
  return caught as P2PError;
}

describe("banAddress", () => {
  it("bans one IPv4 address, whatever the port or multiaddr form", () => {
    const scoring = new PeerScoringManager();
    scoring.banAddress(parseBanTarget("192.168.56.1"));
    expect(scoring.isBanned(undefined, "192.168.56.1")).toBe(true);
    expect(scoring.isBanned("anyPeer", "/ip4/192.168.56.1/tcp/5050/p2p/anyPeer")).toBe(true);
    expect(scoring.isBanned(undefined, "/ip6/::ffff:192.168.56.1/tcp/5050")).toBe(true);
    expect(scoring.isBanned(undefined, "192.168.56.2")).toBe(false);
    expect(scoring.isBanned("anyPeer", undefined)).toBe(false);
  });

  it("bans an IPv4 CIDR block", () => {
    const scoring = new PeerScoringManager();
    scoring.banAddress(parseBanTarget("10.0.0.0/8"));
    expect(scoring.isBanned(undefined, "10.0.0.1")).toBe(true);
    expect(scoring.isBanned(undefined, "/ip4/10.255.255.255/tcp/1")).toBe(true);
    expect(scoring.isBanned(undefined, "11.0.0.1")).toBe(false);
    expect(scoring.isBanned(undefined, "9.255.255.255")).toBe(false);
    expect(scoring.isBanned(undefined, "::a00:1")).toBe(false);
  });

  it("bans IPv6 addresses (loopback included) and blocks", () => {
    const scoring = new PeerScoringManager();
    scoring.banAddress(parseBanTarget("::1"));
    scoring.banAddress(parseBanTarget("2001:db8::/32"));
    expect(scoring.isBanned(undefined, "/ip6/::1/tcp/5050")).toBe(true);
    expect(scoring.isBanned(undefined, "0:0:0:0:0:0:0:1")).toBe(true);
    expect(scoring.isBanned(undefined, "::2")).toBe(false);
    expect(scoring.isBanned(undefined, "2001:db8:1234::99")).toBe(true);
    expect(scoring.isBanned(undefined, "2001:db9::1")).toBe(false);
    expect(scoring.isBanned(undefined, "127.0.0.1")).toBe(false);
  });

  it("lists bans as given (trimmed): addresses first, then blocks, without duplicates", () => {
    const scoring = new PeerScoringManager();
    scoring.banAddress(parseBanTarget("2001:DB8::/32"));
    scoring.banAddress(parseBanTarget(" 192.168.56.1 "));
    scoring.banAddress(parseBanTarget("0:0:0:0:0:0:0:1"));
    scoring.banAddress(parseBanTarget("::1"));
    scoring.banAddress(parseBanTarget("2001:db8:ffff::/32"));
    expect(scoring.bannedAddresses()).toEqual(["192.168.56.1", "0:0:0:0:0:0:0:1", "2001:DB8::/32"]);
  });

  it("unban lifts a ban in any spelling of the same address or block", () => {
    const scoring = new PeerScoringManager();
    scoring.banAddress(parseBanTarget("0:0:0:0:0:0:0:1"));
    scoring.banAddress(parseBanTarget("10.0.0.0/8"));
    scoring.banAddress(parseBanTarget("10.1.0.0/16"));
    scoring.unbanAddress(parseBanTarget("::1"));
    scoring.unbanAddress(parseBanTarget("10.9.9.9/8"));
    expect(scoring.bannedAddresses()).toEqual(["10.1.0.0/16"]);
    expect(scoring.isBanned(undefined, "::1")).toBe(false);
    expect(scoring.isBanned(undefined, "10.2.0.1")).toBe(false);
    expect(scoring.isBanned(undefined, "10.1.0.1")).toBe(true);
    // An address inside a block is not unbanned alone, and unbanning what is not banned is fine.
    scoring.unbanAddress(parseBanTarget("10.1.0.1"));
    scoring.unbanAddress(parseBanTarget("172.16.0.1"));
    expect(scoring.isBanned(undefined, "10.1.0.1")).toBe(true);
  });

  it("bans from the configuration, and refuses invalid ones there", () => {
    const scoring = new PeerScoringManager({bannedAddresses: ["172.16.0.0/12", "fd00::1"]});
    expect(scoring.bannedAddresses()).toEqual(["fd00::1", "172.16.0.0/12"]);
    expect(scoring.isBanned(undefined, "172.31.255.255")).toBe(true);
    expect(scoring.isBanned(undefined, "fd00::1")).toBe(true);
    expect(banError(() => new PeerScoringManager({bannedAddresses: ["nope"]})).code).toBe(
      P2PErrorCode.INVALID_BAN_ADDRESS,
    );
  });

  // What parses is utils' `parseIpAddressOrRange` (its tests hold every refused form); here, that a
  // refusal becomes P2P's INVALID_BAN_ADDRESS with rskj's message.
  it.each(["", "192.168.56.1/33", "0.0.0.0", "localhost", "fe80::1%eth0"])(
    "refuses %j with INVALID_BAN_ADDRESS and rskj's message",
    (input) => {
      const error = banError(() => parseBanTarget(input));
      expect(error.code).toBe(P2PErrorCode.INVALID_BAN_ADDRESS);
      expect(error.type).toEqual({code: P2PErrorCode.INVALID_BAN_ADDRESS, address: input});
      expect(error.message).toBe(`invalid banned address ${input}`);
    },
  );

  it("accepts the widest and narrowest masks", () => {
    const scoring = new PeerScoringManager();
    scoring.banAddress(parseBanTarget("128.0.0.0/1"));
    scoring.banAddress(parseBanTarget("10.0.0.5/32"));
    scoring.banAddress(parseBanTarget("::2/128"));
    expect(scoring.isBanned(undefined, "200.1.1.1")).toBe(true);
    expect(scoring.isBanned(undefined, "127.255.255.255")).toBe(false);
    expect(scoring.isBanned(undefined, "10.0.0.5")).toBe(true);
    expect(scoring.isBanned(undefined, "10.0.0.6")).toBe(false);
    expect(scoring.isBanned(undefined, "::2")).toBe(true);
    expect(scoring.isBanned(undefined, "::3")).toBe(false);
  });
});

describe("loopback addresses", () => {
  it("are scored but never punished: one bad local peer does not cut off the others", () => {
    const scoring = new PeerScoringManager({}, {now: () => 1_000});
    scoring.record("bad", "/ip4/127.0.0.1/tcp/4001", PeerEvent.INVALID_MESSAGE);
    scoring.record("bad6", "/ip6/::1/tcp/4001", PeerEvent.INVALID_MESSAGE);
    expect(scoring.isBanned("bad", "/ip4/127.0.0.1/tcp/4001")).toBe(true);
    expect(scoring.isBanned("honest", "/ip4/127.0.0.1/tcp/4002")).toBe(false);
    expect(scoring.isBanned("honest", "/ip6/::1/tcp/4002")).toBe(false);
    const loopback = scoring.peerList().find((p) => p.type === "address" && p.id === "127.0.0.1");
    expect(loopback?.invalidMessages).toBe(1);
    expect(loopback?.punishedUntil).toBe(0);
  });

  it("other addresses are punished with their peer", () => {
    const scoring = new PeerScoringManager({}, {now: () => 1_000});
    scoring.record("bad", "/ip4/10.1.2.3/tcp/4001", PeerEvent.INVALID_MESSAGE);
    expect(scoring.isBanned("honest", "/ip4/10.1.2.3/tcp/4002")).toBe(true);
  });
});
