/** sco_reputationSummary, sco_clearPeerScoring and the bounded number of entries. */
import {describe, expect, it} from "vitest";
import {DEFAULT_MAX_SCORED_ENTRIES} from "../../src/options.ts";
import {PeerScoringManager, parseBanTarget} from "../../src/scoring/index.ts";
import {PeerEvent} from "../../src/types.ts";

const MINUTE = 60_000;

function setup(options: ConstructorParameters<typeof PeerScoringManager>[0] = {}) {
  const clock = {t: 1_000_000};
  return {clock, scoring: new PeerScoringManager(options, {now: () => clock.t})};
}

describe("reputationSummary", () => {
  it("is all zeros without entries", () => {
    const {scoring} = setup();
    expect(scoring.peerList()).toEqual([]);
    expect(scoring.reputationSummary()).toEqual({
      count: 0,
      successfulHandshakes: 0,
      failedHandshakes: 0,
      invalidHeader: 0,
      validBlocks: 0,
      invalidBlocks: 0,
      validTransactions: 0,
      invalidTransactions: 0,
      invalidNetworks: 0,
      invalidMessages: 0,
      repeatedMessages: 0,
      timeoutMessages: 0,
      unexpectedMessages: 0,
      peersTotalScore: 0,
      punishments: 0,
      goodReputationCount: 0,
      badReputationCount: 0,
    });
  });

  it("sums every entry of peerList, node ids and addresses alike", () => {
    const {scoring} = setup();
    scoring.record("good", "10.0.0.1", PeerEvent.SUCCESSFUL_HANDSHAKE);
    scoring.record("good", "10.0.0.1", PeerEvent.VALID_BLOCK);
    scoring.record("good", "10.0.0.1", PeerEvent.VALID_BLOCK);
    scoring.record("good", "10.0.0.1", PeerEvent.VALID_TRANSACTION);
    scoring.record("bad", "10.0.0.2", PeerEvent.INVALID_TRANSACTION);
    scoring.record("bad", "10.0.0.2", PeerEvent.INVALID_BLOCK);
    scoring.record("bad", undefined, PeerEvent.TIMEOUT_MESSAGE);
    scoring.record("slow", undefined, PeerEvent.FAILED_HANDSHAKE);
    scoring.record("slow", undefined, PeerEvent.REPEATED_MESSAGE);
    scoring.record("slow", undefined, PeerEvent.UNEXPECTED_MESSAGE);
    scoring.record("slow", undefined, PeerEvent.INVALID_NETWORK);
    scoring.record(undefined, "10.0.0.3", PeerEvent.INVALID_HEADER);
    scoring.record(undefined, "10.0.0.3", PeerEvent.INVALID_MESSAGE);

    const list = scoring.peerList();
    expect(list.map((i) => `${i.type}:${i.id}`)).toEqual([
      "node:good",
      "node:bad",
      "node:slow",
      "address:10.0.0.1",
      "address:10.0.0.2",
      "address:10.0.0.3",
    ]);
    expect(scoring.reputationSummary()).toEqual({
      count: 6,
      successfulHandshakes: 2,
      failedHandshakes: 1,
      invalidHeader: 1,
      validBlocks: 4,
      invalidBlocks: 2,
      validTransactions: 2,
      invalidTransactions: 2,
      invalidNetworks: 1,
      invalidMessages: 1,
      repeatedMessages: 1,
      timeoutMessages: 1,
      unexpectedMessages: 1,
      // good: 3 + 3, bad: -2 - 2, slow: -1, 10.0.0.3: -2
      peersTotalScore: 3 + 3 - 2 - 2 - 1 - 2,
      punishments: 3,
      goodReputationCount: 3,
      badReputationCount: 3,
    });
  });

  it("counts expired punishments as good", () => {
    const {scoring, clock} = setup();
    scoring.record("bad", "10.0.0.2", PeerEvent.INVALID_BLOCK);
    expect(scoring.reputationSummary()).toMatchObject({goodReputationCount: 0, badReputationCount: 2, punishments: 2});
    clock.t += 12 * MINUTE;
    expect(scoring.reputationSummary()).toMatchObject({
      goodReputationCount: 2,
      badReputationCount: 0,
      punishments: 2,
      invalidBlocks: 0,
    });
  });
});

describe("clear", () => {
  it("forgets an address given as an IP, or a node id otherwise, and lifts their punishment", () => {
    const {scoring} = setup();
    scoring.record("peerA", "10.0.0.1", PeerEvent.INVALID_BLOCK);
    scoring.record("peerB", "::1", PeerEvent.VALID_BLOCK);
    scoring.clear("10.0.0.1");
    expect(scoring.peerList().map((i) => i.id)).toEqual(["peerA", "peerB", "::1"]);
    expect(scoring.isBanned(undefined, "10.0.0.1")).toBe(false);
    expect(scoring.isBanned("peerA", undefined)).toBe(true);
    scoring.clear("peerA");
    expect(scoring.isBanned("peerA", "10.0.0.1")).toBe(false);
    scoring.clear("0:0:0:0:0:0:0:1");
    expect(scoring.peerList().map((i) => i.id)).toEqual(["peerB"]);
    scoring.clear("unknown");
    scoring.clear("10.9.9.9");
    expect(scoring.size).toEqual({nodes: 1, addresses: 0});
  });

  it("leaves manual bans alone", () => {
    const {scoring} = setup();
    scoring.banAddress(parseBanTarget("10.0.0.1"));
    scoring.record("peerA", "10.0.0.1", PeerEvent.VALID_BLOCK);
    scoring.clear("10.0.0.1");
    expect(scoring.isBanned(undefined, "10.0.0.1")).toBe(true);
    expect(scoring.bannedAddresses()).toEqual(["10.0.0.1"]);
  });

  it("starts a cleared entry afresh, punishment count included", () => {
    const {scoring} = setup();
    scoring.record("peerA", undefined, PeerEvent.INVALID_BLOCK);
    scoring.clear("peerA");
    scoring.record("peerA", undefined, PeerEvent.INVALID_BLOCK);
    expect(scoring.peerList()[0]).toMatchObject({punishments: 1, invalidBlocks: 1});
  });
});

describe("bounded memory", () => {
  it("defaults to 10,000 entries of each kind", () => {
    expect(DEFAULT_MAX_SCORED_ENTRIES).toBe(10_000);
    const {scoring} = setup();
    for (let i = 0; i < 10_050; i++) {
      scoring.record(`peer${i}`, `10.0.${i >> 8}.${i & 255}`, PeerEvent.SUCCESSFUL_HANDSHAKE);
    }
    expect(scoring.size).toEqual({nodes: 10_000, addresses: 10_000});
    const ids = new Set(scoring.peerList().map((i) => i.id));
    expect(ids.has("peer49")).toBe(false);
    expect(ids.has("peer50")).toBe(true);
    expect(ids.has("peer10049")).toBe(true);
  });

  it("evicts the least recently recorded entry with a good reputation first", () => {
    const {scoring} = setup({maxNodes: 3, maxAddresses: 2});
    scoring.record("punished", "10.0.0.1", PeerEvent.INVALID_HEADER);
    scoring.record("old", "10.0.0.2", PeerEvent.VALID_BLOCK);
    scoring.record("recent", undefined, PeerEvent.VALID_BLOCK);
    scoring.record("old", undefined, PeerEvent.VALID_BLOCK); // now more recent than "recent"
    scoring.record("new", "10.0.0.3", PeerEvent.VALID_BLOCK);
    expect(scoring.peerList().map((i) => i.id)).toEqual(["punished", "old", "new", "10.0.0.1", "10.0.0.3"]);
    expect(scoring.isBanned("punished", "10.0.0.1")).toBe(true);
  });

  it("counts an expired punishment as good when evicting", () => {
    const {scoring, clock} = setup({maxNodes: 2});
    scoring.record("expired", undefined, PeerEvent.INVALID_BLOCK);
    scoring.record("punished", undefined, PeerEvent.INVALID_BLOCK);
    clock.t += 12 * MINUTE; // "expired" ends now; "punished" too, so punish it again
    scoring.record("punished", undefined, PeerEvent.INVALID_BLOCK);
    scoring.record("newcomer", undefined, PeerEvent.VALID_BLOCK);
    expect(scoring.peerList().map((i) => i.id)).toEqual(["punished", "newcomer"]);
  });

  it("evicts the least recently recorded punished entry when all are punished", () => {
    const {scoring} = setup({maxNodes: 2});
    scoring.record("first", undefined, PeerEvent.INVALID_BLOCK);
    scoring.record("second", undefined, PeerEvent.INVALID_BLOCK);
    scoring.record("first", undefined, PeerEvent.TIMEOUT_MESSAGE);
    scoring.record("third", undefined, PeerEvent.INVALID_BLOCK);
    expect(scoring.peerList().map((i) => i.id)).toEqual(["first", "third"]);
    expect(scoring.isBanned("second", undefined)).toBe(false);
  });
});
