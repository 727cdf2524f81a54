// The readiness rule of GET /ready and its answers.

import type {PeerInfo} from "@xchain/p2p";
import {healthAnswer} from "@xchain/rpc";
import {describe, expect, it} from "vitest";
import {createReadinessProbe, type ReadinessSources} from "../../src/metrics/readiness.ts";
import {heaviestPeer} from "../../src/p2pStack.ts";

const NOW_MS = 1_000_000_000;
const opts = {readyMaxHeadAgeSeconds: 60, readyMaxBlocksBehind: 10};

function probe(overrides: Partial<ReadinessSources>) {
  return createReadinessProbe(opts, {
    head: () => ({number: 100, timestamp: NOW_MS / 1000 - 5, totalDifficulty: 1_000n}),
    isMining: () => false,
    bestPeer: () => undefined,
    syncTarget: () => undefined,
    awaitingFirstPeer: () => false,
    now: () => NOW_MS,
    storageFault: () => undefined,
    ...overrides,
  });
}

/** A peer at `number` with more work than the head of `probe`'s default (block 100, total difficulty 1,000). */
const peerAt = (number: number) => ({number, totalDifficulty: 10n * BigInt(number) + 1n});

describe("the readiness probe", () => {
  it("is ready with a recent head and no peers", () => {
    expect(probe({}).readiness()).toEqual({ready: true});
  });

  it("is not ready while the database cannot serve or store, mining or not", () => {
    const reason = "no space left on the device of /data/db: IO error";
    expect(probe({storageFault: () => reason, isMining: () => true}).readiness()).toEqual({ready: false, reason});
  });

  it("is not ready while bootnodes are configured and no peer has been seen, even when mining", () => {
    expect(probe({awaitingFirstPeer: () => true, isMining: () => true}).readiness()).toEqual({
      ready: false,
      reason: "no peer seen yet: none of p2p.bootnodes has answered, so the network's head is unknown",
    });
  });

  it("is not ready with a head older than allowed, unless the built-in miner runs", () => {
    const old = {head: () => ({number: 7, timestamp: NOW_MS / 1000 - 61, totalDifficulty: 70n})};
    expect(probe(old).readiness()).toEqual({
      ready: false,
      reason: "head block 7 is 61 s old (metrics.readyMaxHeadAgeSeconds is 60)",
    });
    expect(probe({...old, isMining: () => true}).readiness()).toEqual({ready: true});
  });

  it("says a node is still at genesis, and why, rather than the genesis block's age", () => {
    // Mainnet's genesis timestamp is years old: the age says nothing about a fresh node.
    const genesis = {head: () => ({number: 0, timestamp: NOW_MS / 1000 - 280_933_783, totalDifficulty: 1n})};
    expect(probe(genesis).readiness()).toEqual({
      ready: false,
      reason: "still at genesis: no peer connected, so syncing has not started",
    });
    expect(probe({...genesis, bestPeer: () => peerAt(5_000)}).readiness()).toEqual({
      ready: false,
      reason: "still at genesis: syncing from peers, the best of which is at block 5000",
    });
    expect(probe({...genesis, bestPeer: () => ({number: 0, totalDifficulty: 1n})}).readiness()).toEqual({
      ready: false,
      reason: "still at genesis, as are the connected peers: no block has been mined on this network yet",
    });
    // A recent genesis (a new chain) far behind its peers says the same.
    const fresh = {
      head: () => ({number: 0, timestamp: NOW_MS / 1000 - 5, totalDifficulty: 1n}),
      bestPeer: () => peerAt(50),
    };
    expect(probe(fresh).readiness()).toEqual({
      ready: false,
      reason: "still at genesis: syncing from peers, the best of which is at block 50",
    });
    expect(probe({...genesis, isMining: () => true}).readiness()).toEqual({ready: true});
  });

  it("is not ready when the best peer is more than the allowed blocks ahead", () => {
    expect(probe({bestPeer: () => peerAt(110)}).readiness()).toEqual({ready: true});
    expect(probe({bestPeer: () => peerAt(111)}).readiness()).toEqual({
      ready: false,
      reason: "head block 100 is 11 blocks behind the best peer's 111 (metrics.readyMaxBlocksBehind is 10)",
    });
  });

  it("is ready beside a peer whose longer branch is not heavier than ours", () => {
    // A branch we would not follow: more blocks, no more work.
    expect(probe({bestPeer: () => ({number: 500, totalDifficulty: 1_000n})}).readiness()).toEqual({ready: true});
    expect(probe({bestPeer: () => ({number: 500, totalDifficulty: 999n})}).readiness()).toEqual({ready: true});
    expect(probe({bestPeer: () => ({number: 500, totalDifficulty: 1_001n})}).readiness()).toMatchObject({
      ready: false,
    });
  });

  it("is not ready while a sync goes to a head more than the allowed blocks ahead", () => {
    expect(probe({syncTarget: () => 110}).readiness()).toEqual({ready: true});
    expect(probe({syncTarget: () => 250}).readiness()).toEqual({
      ready: false,
      reason: "syncing: head block 100 is 150 blocks behind the sync's target 250 (metrics.readyMaxBlocksBehind is 10)",
    });
  });

  it("answers /ready 503 with the reason, /health 200 either way, and nothing for other paths", () => {
    const behind = probe({bestPeer: () => peerAt(200)});
    expect(healthAnswer("/health", behind)).toEqual({status: 200, body: '{"status":"ok"}'});
    expect(healthAnswer("/ready?verbose", behind)?.status).toBe(503);
    expect(JSON.parse(healthAnswer("/ready", behind)?.body ?? "")).toMatchObject({status: "not ready"});
    expect(healthAnswer("/ready", probe({}))).toEqual({status: 200, body: '{"status":"ready"}'});
    expect(healthAnswer("/readyz", behind)).toBeUndefined();
    expect(healthAnswer("/", behind)).toBeUndefined();
  });
});

describe("the heaviest peer", () => {
  const peer = (bestNumber: number, totalDifficulty: bigint) => ({status: {bestNumber, totalDifficulty}}) as PeerInfo;

  it("is the one with the highest total difficulty, not the highest number", () => {
    expect(heaviestPeer([])).toBeUndefined();
    expect(heaviestPeer([peer(900, 5n), peer(100, 50n), peer(300, 20n)])).toEqual({number: 100, totalDifficulty: 50n});
    expect(heaviestPeer([peer(100, 50n), peer(120, 50n)])).toEqual({number: 120, totalDifficulty: 50n});
  });
});
