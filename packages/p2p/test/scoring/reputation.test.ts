/** Counters, score, reputation, punishment and its expiry, by node id and by address. */
import {describe, expect, it} from "vitest";
import type {PeerScoringOptions} from "../../src/options.ts";
import {PeerScoringManager} from "../../src/scoring/index.ts";
import {PeerEvent, type PeerScoringInfo} from "../../src/types.ts";

const MINUTE = 60_000;
const T0 = 1_700_000_000_000;
const PEER = "16Uiu2HAmScoredPeer";
const ADDRESS = "/ip4/10.0.0.7/tcp/5050";

function setup(options: Partial<PeerScoringOptions> = {}) {
  const clock = {t: T0};
  const scoring = new PeerScoringManager(options, {now: () => clock.t});
  const entry = (type: "node" | "address", id: string): PeerScoringInfo => {
    const found = scoring.peerList().find((i) => i.type === type && i.id === id);
    if (found === undefined) throw new Error(`no ${type} entry ${id}`);
    return found;
  };
  return {clock, scoring, node: (id = PEER) => entry("node", id), address: (id = "10.0.0.7") => entry("address", id)};
}

const ALL_EVENTS = Object.values(PeerEvent);
const BAD = [PeerEvent.INVALID_BLOCK, PeerEvent.INVALID_MESSAGE, PeerEvent.INVALID_HEADER];
const NOT_BAD = ALL_EVENTS.filter((e) => !BAD.includes(e));

describe("counters and score", () => {
  it("counts each event in its sco_peerList field, by node id and by address", () => {
    const {scoring, node, address} = setup({punishmentEnabled: false});
    ALL_EVENTS.forEach((event, i) => {
      for (let n = 0; n <= i; n++) scoring.record(PEER, ADDRESS, event);
    });
    const expected = {
      goodReputation: true,
      successfulHandshakes: 1,
      failedHandshakes: 2,
      invalidNetworks: 3,
      invalidHeader: 4,
      validBlocks: 5,
      invalidBlocks: 6,
      validTransactions: 7,
      invalidTransactions: 8,
      invalidMessages: 9,
      repeatedMessages: 10,
      timeoutMessages: 11,
      unexpectedMessages: 12,
      punishments: 0,
      punishedUntil: 0,
    };
    expect(ALL_EVENTS).toEqual([
      "SUCCESSFUL_HANDSHAKE",
      "FAILED_HANDSHAKE",
      "INVALID_NETWORK",
      "INVALID_HEADER",
      "VALID_BLOCK",
      "INVALID_BLOCK",
      "VALID_TRANSACTION",
      "INVALID_TRANSACTION",
      "INVALID_MESSAGE",
      "REPEATED_MESSAGE",
      "TIMEOUT_MESSAGE",
      "UNEXPECTED_MESSAGE",
    ]);
    expect(node()).toMatchObject({id: PEER, type: "node", ...expected});
    expect(address()).toMatchObject({id: "10.0.0.7", type: "address", ...expected});
    // docs/protocol/peer-scoring.md's fields, in its order.
    expect(Object.keys(node())).toEqual([
      "id",
      "type",
      "goodReputation",
      "successfulHandshakes",
      "failedHandshakes",
      "invalidNetworks",
      "repeatedMessages",
      "validBlocks",
      "validTransactions",
      "invalidBlocks",
      "invalidTransactions",
      "invalidMessages",
      "timeoutMessages",
      "unexpectedMessages",
      "invalidHeader",
      "score",
      "punishments",
      "punishedUntil",
    ]);
  });

  it("scores as rskj: valid blocks/transactions +1 unless negative, invalid ones reset to 0 then -1", () => {
    const {scoring, node} = setup({punishmentEnabled: false});
    const score = (event: PeerEvent) => {
      scoring.record(PEER, undefined, event);
      return node().score;
    };
    expect(score(PeerEvent.VALID_BLOCK)).toBe(1);
    expect(score(PeerEvent.VALID_TRANSACTION)).toBe(2);
    for (const e of [
      PeerEvent.SUCCESSFUL_HANDSHAKE,
      PeerEvent.FAILED_HANDSHAKE,
      PeerEvent.REPEATED_MESSAGE,
      PeerEvent.TIMEOUT_MESSAGE,
      PeerEvent.UNEXPECTED_MESSAGE,
    ]) {
      expect(score(e)).toBe(2);
    }
    expect(score(PeerEvent.INVALID_TRANSACTION)).toBe(-1);
    expect(score(PeerEvent.VALID_BLOCK)).toBe(-1);
    expect(score(PeerEvent.INVALID_NETWORK)).toBe(-2);
    expect(score(PeerEvent.INVALID_BLOCK)).toBe(-3);
    expect(score(PeerEvent.INVALID_MESSAGE)).toBe(-4);
    expect(score(PeerEvent.INVALID_HEADER)).toBe(-5);
  });

  it("keeps node ids and addresses apart, and IPv4-mapped addresses with IPv4", () => {
    const {scoring, node, address} = setup();
    scoring.record("peerA", "/ip4/10.0.0.1/tcp/1", PeerEvent.VALID_BLOCK);
    scoring.record("peerB", "/ip6/::ffff:10.0.0.1/tcp/2", PeerEvent.VALID_BLOCK);
    scoring.record("peerA", "10.0.0.2", PeerEvent.VALID_BLOCK);
    scoring.record("peerC", undefined, PeerEvent.VALID_BLOCK);
    scoring.record("peerC", "/dns4/example.com/tcp/1", PeerEvent.VALID_BLOCK);
    expect(node("peerA").validBlocks).toBe(2);
    expect(node("peerB").validBlocks).toBe(1);
    expect(node("peerC").validBlocks).toBe(2);
    expect(address("10.0.0.1").validBlocks).toBe(2);
    expect(address("10.0.0.2").validBlocks).toBe(1);
    expect(scoring.size).toEqual({nodes: 3, addresses: 2});
  });
});

describe("reputation", () => {
  it.each(BAD)("%s turns the reputation bad and bans the peer id and its address", (event) => {
    const {scoring, clock, node, address} = setup();
    scoring.record(PEER, ADDRESS, PeerEvent.VALID_BLOCK);
    expect(scoring.isBanned(PEER, ADDRESS)).toBe(false);
    scoring.record(PEER, ADDRESS, event);
    expect(node()).toMatchObject({goodReputation: false, punishments: 1, punishedUntil: T0 + 12 * MINUTE, score: -1});
    expect(address()).toMatchObject({goodReputation: false, punishments: 1, punishedUntil: T0 + 12 * MINUTE});
    expect(scoring.isBanned(PEER, undefined)).toBe(true);
    expect(scoring.isBanned(undefined, "10.0.0.7")).toBe(true);
    expect(scoring.isBanned("anotherPeer", "/ip4/10.0.0.7/tcp/9999")).toBe(true);
    expect(scoring.isBanned("anotherPeer", "10.0.0.8")).toBe(false);
    clock.t += 12 * MINUTE - 1;
    expect(scoring.isBanned(PEER, undefined)).toBe(true);
  });

  it.each(NOT_BAD)("%s alone, many times, keeps the reputation good", (event) => {
    const {scoring, node, address} = setup();
    for (let i = 0; i < 50; i++) scoring.record(PEER, ADDRESS, event);
    expect(node().goodReputation).toBe(true);
    expect(address().goodReputation).toBe(true);
    expect(node().punishments).toBe(0);
    expect(scoring.isBanned(PEER, ADDRESS)).toBe(false);
  });

  it("a negative score lengthens the punishment (times -score)", () => {
    const {scoring, node} = setup();
    scoring.record(PEER, undefined, PeerEvent.INVALID_TRANSACTION);
    scoring.record(PEER, undefined, PeerEvent.INVALID_NETWORK);
    expect(node().goodReputation).toBe(true);
    scoring.record(PEER, undefined, PeerEvent.INVALID_HEADER);
    expect(node()).toMatchObject({score: -3, punishedUntil: T0 + 3 * 12 * MINUTE});
  });

  it("events during a punishment are counted but do not extend or repeat it", () => {
    const {scoring, clock, node} = setup();
    scoring.record(PEER, undefined, PeerEvent.INVALID_BLOCK);
    clock.t += MINUTE;
    scoring.record(PEER, undefined, PeerEvent.INVALID_BLOCK);
    scoring.record(PEER, undefined, PeerEvent.INVALID_MESSAGE);
    expect(node()).toMatchObject({
      invalidBlocks: 2,
      invalidMessages: 1,
      punishments: 1,
      punishedUntil: T0 + 12 * MINUTE,
    });
  });

  it("expiry restores the reputation and restarts counters and score, keeping the punishment count", () => {
    const {scoring, clock, node} = setup();
    scoring.record(PEER, ADDRESS, PeerEvent.VALID_BLOCK);
    scoring.record(PEER, ADDRESS, PeerEvent.INVALID_BLOCK);
    clock.t = T0 + 12 * MINUTE;
    expect(scoring.isBanned(PEER, ADDRESS)).toBe(false);
    expect(node()).toMatchObject({
      goodReputation: true,
      validBlocks: 0,
      invalidBlocks: 0,
      score: 0,
      punishments: 1,
      punishedUntil: 0,
    });
  });

  it("expiry seen by peerList alone, without a lookup", () => {
    const {scoring, clock} = setup();
    scoring.record(PEER, undefined, PeerEvent.INVALID_MESSAGE);
    expect(scoring.peerList()[0]!.goodReputation).toBe(false);
    clock.t += 12 * MINUTE;
    expect(scoring.peerList()[0]).toMatchObject({goodReputation: true, invalidMessages: 0, punishedUntil: 0});
  });

  it("an offence right after expiry is punished again, longer (deviation: rskj loses that event)", () => {
    const {scoring, clock, node} = setup();
    scoring.record(PEER, undefined, PeerEvent.INVALID_BLOCK);
    clock.t += 12 * MINUTE;
    scoring.record(PEER, undefined, PeerEvent.INVALID_BLOCK);
    expect(node()).toMatchObject({goodReputation: false, invalidBlocks: 1, punishments: 2});
    expect(node().punishedUntil).toBe(clock.t + 792_000);
  });

  it("punishments grow by the increment and stop at the maximum (addresses by default)", () => {
    const {scoring, clock, node, address} = setup();
    const nodeDurations: number[] = [];
    const addressDurations: number[] = [];
    for (let i = 0; i < 70; i++) {
      scoring.record(PEER, ADDRESS, PeerEvent.INVALID_HEADER);
      nodeDurations.push(node().punishedUntil - clock.t);
      addressDurations.push(address().punishedUntil - clock.t);
      clock.t = Math.max(node().punishedUntil, address().punishedUntil);
    }
    expect(nodeDurations.slice(0, 4)).toEqual([720_000, 792_000, 871_200, 958_320]);
    expect(addressDurations.slice(0, 4)).toEqual([720_000, 792_000, 871_200, 958_320]);
    for (let i = 1; i < 70; i++) expect(nodeDurations[i]!).toBeGreaterThan(nodeDurations[i - 1]!);
    // 12 min × 1.1^n passes 6000 min at the 67th punishment: addresses stop there, node ids go on.
    expect(addressDurations[65]!).toBeLessThan(6000 * MINUTE);
    expect(addressDurations.slice(66)).toEqual([6000 * MINUTE, 6000 * MINUTE, 6000 * MINUTE, 6000 * MINUTE]);
    expect(nodeDurations[69]).toBe(516_923_594);
    expect(node().punishments).toBe(70);
  });

  it("a configured maximum caps node punishments", () => {
    const {scoring, clock, node} = setup({nodes: {durationMs: 1000, incrementPercent: 100, maximumMs: 5000}});
    const durations: number[] = [];
    for (let i = 0; i < 5; i++) {
      scoring.record(PEER, undefined, PeerEvent.INVALID_BLOCK);
      durations.push(node().punishedUntil - clock.t);
      clock.t = node().punishedUntil;
    }
    expect(durations).toEqual([1000, 2000, 4000, 5000, 5000]);
  });

  it("with punishment disabled, counts and scores but never punishes", () => {
    const {scoring, node} = setup({punishmentEnabled: false});
    scoring.record(PEER, ADDRESS, PeerEvent.INVALID_BLOCK);
    expect(node()).toMatchObject({goodReputation: true, invalidBlocks: 1, score: -1, punishments: 0, punishedUntil: 0});
    expect(scoring.isBanned(PEER, ADDRESS)).toBe(false);
  });

  it("peer ids banned by configuration are banned without events", () => {
    const {scoring} = setup({bannedPeerIds: ["16Uiu2HAmBanned"]});
    expect(scoring.isBanned("16Uiu2HAmBanned", undefined)).toBe(true);
    expect(scoring.isBanned("16Uiu2HAmOther", undefined)).toBe(false);
  });

  it("uses Date.now without a clock", () => {
    const scoring = new PeerScoringManager();
    const before = Date.now();
    scoring.record(PEER, undefined, PeerEvent.INVALID_BLOCK);
    const until = scoring.peerList()[0]!.punishedUntil;
    expect(until).toBeGreaterThanOrEqual(before + 12 * MINUTE);
    expect(until).toBeLessThanOrEqual(Date.now() + 12 * MINUTE);
  });
});
