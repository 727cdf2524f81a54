/** Which peer the sync manager syncs from. */
import type {PeerInfo, PeerStatus} from "@xchain/p2p";
import {describe, expect, it} from "vitest";
import {isSyncCandidate, type SelectionContext, selectSyncPeer} from "../src/index.ts";

const GENESIS = new Uint8Array(32).fill(1);

function peer(id: string, bestNumber: number, totalDifficulty: bigint, status: Partial<PeerStatus> = {}): PeerInfo {
  return {
    id,
    remoteAddress: "/ip4/127.0.0.1/tcp/1",
    inbound: false,
    status: {
      protocolVersion: 1,
      networkId: 7771,
      genesisHash: GENESIS,
      bestHash: new Uint8Array(32).fill(bestNumber),
      bestNumber,
      totalDifficulty,
      ...status,
    },
  };
}

function context(overrides: Partial<SelectionContext> = {}): SelectionContext {
  return {
    head: {number: 100, totalDifficulty: 1_000n},
    genesisHash: GENESIS,
    minBlocksBehind: 2,
    requested: new Set(),
    coolingDown: () => false,
    ...overrides,
  };
}

describe("selectSyncPeer", () => {
  it("wants more total difficulty, and minBlocksBehind blocks ahead unless the peer is not ahead at all", () => {
    expect(isSyncCandidate(peer("p", 110, 1_000n), context())).toBe(false);
    expect(isSyncCandidate(peer("p", 110, 999n), context())).toBe(false);
    expect(isSyncCandidate(peer("p", 102, 1_001n), context())).toBe(true);
    // One block ahead: the relay's job.
    expect(isSyncCandidate(peer("p", 101, 1_001n), context())).toBe(false);
    // Heavier at our height or below: another branch.
    expect(isSyncCandidate(peer("p", 100, 1_001n), context())).toBe(true);
    expect(isSyncCandidate(peer("p", 90, 1_001n), context())).toBe(true);
  });

  it("takes a peer the relay asked for however few blocks it is ahead", () => {
    expect(isSyncCandidate(peer("p", 101, 1_001n), context({requested: new Set(["p"])}))).toBe(true);
    expect(isSyncCandidate(peer("p", 101, 1_000n), context({requested: new Set(["p"])}))).toBe(false);
  });

  it("leaves out peers cooling down and peers of another genesis", () => {
    expect(isSyncCandidate(peer("p", 200, 2_000n), context({coolingDown: (id) => id === "p"}))).toBe(false);
    expect(isSyncCandidate(peer("p", 200, 2_000n, {genesisHash: new Uint8Array(32)}), context())).toBe(false);
  });

  it("picks the heaviest candidate, then the higher best block, then the smaller id", () => {
    const peers = [peer("a", 300, 1_500n), peer("b", 200, 2_000n), peer("c", 250, 1_800n), peer("d", 101, 5_000n)];
    expect(selectSyncPeer(peers, context())?.id).toBe("b");
    expect(selectSyncPeer([peer("x", 200, 2_000n), peer("y", 201, 2_000n)], context())?.id).toBe("y");
    expect(selectSyncPeer([peer("y", 200, 2_000n), peer("x", 200, 2_000n)], context())?.id).toBe("x");
    expect(selectSyncPeer([peer("a", 150, 900n)], context())).toBeUndefined();
  });
});
