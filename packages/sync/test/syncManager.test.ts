/**
 * SyncManager over fake networks that connect real chains: catching up from genesis, choosing the
 * heaviest peer, moving onto a heavier branch, losing the sync peer, misbehaving peers, restarts
 * and progress.
 */
import {type NewHeadEvent, SenderRecovery} from "@xchain/chain";
import {PeerEvent} from "@xchain/p2p";
import {headerValues} from "@xchain/test-utils";
import {bytesToHex, equalBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {SyncError, SyncErrorCode, type SyncProgress, type SyncRunResult} from "../src/index.ts";
import type {FakeHub} from "./support/fakeNetwork.ts";
import {syncSuite} from "./support/suite.ts";
import {hex, newHub, TestNode, waitFor} from "./support/testNode.ts";

const suite = syncSuite();
const node = suite.node;

const NEGATIVE = [PeerEvent.INVALID_BLOCK, PeerEvent.INVALID_HEADER, PeerEvent.UNEXPECTED_MESSAGE];

/**
 * A fresh node "local" syncs (16 headers per request) from the peers "liar" and "honest" already
 * on `hub`: it must end on the main branch's block 60 with the liar reported `event` alone and the
 * honest peer never blamed. Returns the liar's run.
 */
async function syncPastLiar(hub: FakeHub, event: PeerEvent): Promise<SyncRunResult | undefined> {
  const local = await node(hub, "local");
  const sync = local.startSync({headersPerRequest: 16});
  const runs: SyncRunResult[] = [];
  sync.events.on("runEnded", (run) => runs.push(run));
  hub.connect("local", "liar");
  hub.connect("local", "honest");
  await waitFor(() => local.chain.head().number === 60, "head 60");
  expect(local.headHex()).toBe(hex(suite.f.main[59]!));
  expect(local.network.reportsAbout("liar")).toEqual([event]);
  expect(local.network.reportsAbout("honest").filter((e) => NEGATIVE.includes(e))).toEqual([]);
  return runs.find((run) => run.peer === "liar");
}

describe("SyncManager", () => {
  it("syncs from genesis to a peer 60 blocks ahead, with the default options", async () => {
    const hub = newHub();
    await node(hub, "peer", suite.f.main);
    const local = await node(hub, "local");
    const sync = local.startSync();
    const synced: number[] = [];
    sync.events.on("synced", (event) => synced.push(event.number));
    const runs: SyncRunResult[] = [];
    sync.events.on("runEnded", (run) => runs.push(run));
    hub.connect("local", "peer");

    await waitFor(() => synced.length > 0, "synced");
    expect(local.headHex()).toBe(hex(suite.f.main[59]!));
    expect(synced).toEqual([60]);
    // The run says where its import loop's time went: importing the 60 blocks, and waiting for their bodies.
    expect(runs.map((run) => run.imported)).toEqual([60]);
    expect(runs[0]?.timings.importingMs).toBeGreaterThan(0);
    expect(runs[0]?.timings.waitingMs).toBeGreaterThanOrEqual(0);
    expect(sync.progress()).toBeUndefined();
    expect((await local.chain.getBlockByNumber(3))?.transactions).toHaveLength(2);
    expect(local.network.reports.map((r) => r.event)).toEqual([]);
    const headerRequests = hub.requests.filter((r) => r.from === "local" && r.kind === "headersByNumber");
    // The common ancestor (genesis, one request), then one batch of 192 that returns 60.
    expect(headerRequests.map((r) => [r.start, r.count])).toEqual([
      [0, 1],
      [1, 192],
    ]);
  });

  it("a sender recovery that fails (closed) leaves the senders to the import, which still syncs every block", async () => {
    const hub = newHub();
    await node(hub, "peer", suite.f.main);
    const local = await node(hub, "local");
    // Closed before its first batch: every recovery rejects at once and no worker thread starts.
    const recovery = new SenderRecovery();
    await recovery.close();
    local.startSync({}, {senderRecovery: recovery});
    hub.connect("local", "peer");
    await waitFor(() => local.chain.head().number === 60, "head 60");
    expect(local.headHex()).toBe(hex(suite.f.main[59]!));
    expect((await local.chain.getBlockByNumber(3))?.transactions[0]?.sender()).toEqual(
      suite.f.main[2]!.transactions[0]?.sender(),
    );
  });

  it("picks the heaviest peer for headers and spreads bodies over every peer that has them", async () => {
    const hub = newHub();
    await node(hub, "a-alt40", [...suite.f.main.slice(0, 10), ...suite.f.alt]);
    await node(hub, "c-main60", suite.f.main);
    await node(hub, "d-main30", suite.f.main.slice(0, 30));
    const local = await node(hub, "local");
    local.startSync({bodiesPerRequest: 4, parallelBodyRequests: 4});
    for (const peer of ["a-alt40", "c-main60", "d-main30"]) hub.connect("local", peer);

    await waitFor(() => local.chain.head().number === 60, "head 60");
    expect(local.headHex()).toBe(hex(suite.f.main[59]!));
    const mine = hub.requests.filter((r) => r.from === "local");
    expect(new Set(mine.filter((r) => r.kind === "headersByNumber").map((r) => r.to))).toEqual(new Set(["c-main60"]));
    const bodyPeers = new Set(mine.filter((r) => r.kind === "bodies").map((r) => r.to));
    expect(bodyPeers.has("c-main60")).toBe(true);
    expect(bodyPeers.has("d-main30")).toBe(true);
    expect(local.network.reports.filter((r) => NEGATIVE.includes(r.event))).toEqual([]);
  });

  it("moves onto a heavier branch: common ancestor by search, the branch imported, the chain reorganizes", async () => {
    const hub = newHub();
    await node(hub, "peer", suite.f.main);
    const local = await node(hub, "local", [...suite.f.main.slice(0, 20), ...suite.f.side]);
    const heads: NewHeadEvent[] = [];
    local.chain.events.on("newHead", (event) => heads.push(event));
    // A window of 4 (blocks 22–25, all on the side branch) forces the binary search below it.
    local.startSync({headersPerRequest: 4});
    hub.connect("local", "peer");

    await waitFor(() => local.chain.head().number === 60, "head 60");
    expect(local.headHex()).toBe(hex(suite.f.main[59]!));
    expect((await local.chain.getHeaderByNumber(21))?.hash()).toEqual(suite.f.main[20]!.hash());
    const reorg = heads.find((event) => event.removed.length > 0);
    expect(reorg?.removed.map((b) => b.header.number)).toEqual([25, 24, 23, 22, 21]);
    const downloads = hub.requests.filter((r) => r.from === "local" && r.kind === "headersByNumber" && r.count === 4);
    expect(downloads[0]?.start).toBe(22);
    // Headers are downloaded from the ancestor (20) on, never from the side branch's heights above it first.
    expect(downloads[1]?.start).toBe(21);
  });

  it("after a partition heals, the lighter node imports the heavier branch; synced blocks are not gossiped", async () => {
    const hub = newHub();
    const light = await node(hub, "light", suite.f.main.slice(0, 20));
    const heavy = await node(hub, "heavy", suite.f.main.slice(0, 20));
    for (const n of [light, heavy]) {
      n.startSync();
      n.startRelay();
    }
    await light.importBlocks(suite.f.side);
    await heavy.importBlocks(suite.f.main.slice(20, 40));
    hub.connect("light", "heavy");

    await waitFor(() => light.chain.head().number === 40, "light at 40");
    expect(light.headHex()).toBe(hex(suite.f.main[39]!));
    expect(heavy.headHex()).toBe(hex(suite.f.main[39]!));
    // Blocks it "mined" itself were published; the ones it synced were not.
    expect(light.network.publishedBlocks.map((b) => b.header.number)).toEqual([21, 22, 23, 24, 25]);
    // One status per block it mined; while syncing, at most one a second and the last head.
    await waitFor(() => light.network.announced.at(-1)?.bestNumber === 40, "status 40");
    expect(light.network.announced.at(-1)?.bestHash).toEqual(suite.f.main[39]!.hash());
    expect(light.network.announced.length).toBeLessThanOrEqual(5 + 3);
    expect(heavy.sync?.progress()).toBeUndefined();
    expect(hub.requests.filter((r) => r.from === "heavy")).toEqual([]);
  });

  it("goes on with another peer when the sync peer disappears mid-sync", async () => {
    const hub = newHub();
    hub.latencyMs = 3;
    await node(hub, "peer-a", suite.f.main);
    await node(hub, "peer-b", suite.f.main);
    const local = await node(hub, "local");
    const sync = local.startSync({headersPerRequest: 8, bodiesPerRequest: 4, parallelBodyRequests: 2});
    let dropped: string | undefined;
    let requestsBefore = 0;
    sync.events.on("progress", (progress) => {
      if (dropped || progress.currentBlock < 15) return;
      dropped = sync.syncPeer();
      requestsBefore = hub.requests.length;
      hub.disconnect("local", dropped as string);
    });
    hub.connect("local", "peer-a");
    hub.connect("local", "peer-b");

    await waitFor(() => local.chain.head().number === 60, "head 60");
    expect(local.headHex()).toBe(hex(suite.f.main[59]!));
    expect(dropped).toBeDefined();
    const other = dropped === "peer-a" ? "peer-b" : "peer-a";
    const after = hub.requests.slice(requestsBefore).filter((r) => r.from === "local");
    expect(after.some((r) => r.kind === "headersByNumber" && r.to === other)).toBe(true);
    expect(after.filter((r) => r.to === dropped && r.kind === "headersByNumber")).toEqual([]);
    expect(local.network.reports.filter((r) => NEGATIVE.includes(r.event))).toEqual([]);
  });

  it("reports a peer serving a header with a bad merged-mining proof and completes from an honest peer", async () => {
    const hub = newHub();
    const liar = await node(hub, "liar", suite.f.main);
    await node(hub, "honest", suite.f.main);
    // The heaviest claim, so that it is chosen first; header 30 carries block 29's proof of work.
    liar.network.statusOverride = (status) => ({...status, totalDifficulty: status.totalDifficulty + 1_000n});
    const forged = suite.f.main[29]!.header.withMergedMining(suite.f.main[28]!.header.mergedMining!, hub.chainspec);
    liar.network.serve.headers = (headers) => headers.map((h) => (h.number === 30 ? forged : h));
    const liarRun = await syncPastLiar(hub, PeerEvent.INVALID_HEADER);
    const failed = liarRun?.error;
    expect(failed).toBeInstanceOf(SyncError);
    const type = (failed as SyncError).type;
    expect(type.code).toBe(SyncErrorCode.INVALID_HEADER);
    expect(type.code === SyncErrorCode.INVALID_HEADER && [type.number, type.cause.startsWith("MM_")]).toEqual([
      30,
      true,
    ]);
    // Refused before any body was asked for it; the headers before it were imported from the liar's run.
    expect(hub.requests.some((r) => r.hashes?.includes(bytesToHex(forged.hash())))).toBe(false);
    expect(liarRun?.imported).toBe(29);
  });

  it("reports a peer whose block fails execution (INVALID_BLOCK) and completes from an honest peer", async () => {
    const hub = newHub();
    const liar = await node(hub, "liar", suite.f.main);
    await node(hub, "honest", suite.f.main);
    const original = suite.f.main[29]!;
    // A valid proof of work over a wrong state root: every header check passes, execution does not.
    const invalid = suite.f.builder.sealBlock(
      {...headerValues(original.header), stateRoot: new Uint8Array(32).fill(9)},
      original.transactions,
      original.uncles,
    );
    liar.network.statusOverride = (status) => ({...status, totalDifficulty: status.totalDifficulty + 1_000n});
    liar.network.serve.headers = (headers) =>
      headers.filter((h) => h.number <= 30).map((h) => (h.number === 30 ? invalid.header : h));
    liar.network.serve.bodies = (_bodies, hashes) =>
      Promise.all(
        hashes.map(async (hash) => {
          const block = equalBytes(hash, invalid.hash()) ? invalid : await liar.chain.getBlock(hash);
          return {transactions: [...block!.transactions], uncles: [...block!.uncles]};
        }),
      );
    const liarRun = await syncPastLiar(hub, PeerEvent.INVALID_BLOCK);
    expect(liarRun?.imported).toBe(29);
    expect(liarRun?.error).toBeInstanceOf(SyncError);
    expect((liarRun!.error as SyncError).type).toMatchObject({
      code: SyncErrorCode.INVALID_BLOCK,
      number: 30,
      cause: "BLOCK_STATE_ROOT_MISMATCH",
    });
  });

  it("reports peers serving bodies that do not match their headers and completes from an honest peer", async () => {
    const hub = newHub();
    const badTx = await node(hub, "a-bad-transactions", suite.f.main);
    const badUncles = await node(hub, "b-bad-uncles", suite.f.main);
    await node(hub, "c-honest", suite.f.main);
    // Another block's transactions (block 3's, or block 6's for block 3): the transactions root differs.
    badTx.network.serve.bodies = (bodies, hashes) =>
      bodies.map((body, i) => {
        const foreign = hex(suite.f.main[2]!) === bytesToHex(hashes[i]!) ? suite.f.main[5]! : suite.f.main[2]!;
        return {...body, transactions: [...foreign.transactions]};
      });
    // An uncle the header does not commit to.
    badUncles.network.serve.bodies = (bodies) => bodies.map((body) => ({...body, uncles: [suite.f.alt[0]!.header]}));
    const local = await node(hub, "local");
    local.startSync({bodiesPerRequest: 4, parallelBodyRequests: 6});
    for (const peer of ["a-bad-transactions", "b-bad-uncles", "c-honest"]) hub.connect("local", peer);

    await waitFor(() => local.chain.head().number === 60, "head 60");
    expect(local.headHex()).toBe(hex(suite.f.main[59]!));
    expect(local.network.reportsAbout("a-bad-transactions")).toContain(PeerEvent.INVALID_BLOCK);
    expect(local.network.reportsAbout("b-bad-uncles")).toContain(PeerEvent.INVALID_BLOCK);
    expect(local.network.reportsAbout("c-honest").filter((e) => NEGATIVE.includes(e))).toEqual([]);
    // Neither bad peer got a body request after its first bad body.
    for (const bad of ["a-bad-transactions", "b-bad-uncles"]) {
      const reported = local.network.reports.find((r) => r.peer === bad)!.requestsSoFar;
      const later = hub.requests.slice(reported).filter((r) => r.kind === "bodies" && r.to === bad);
      expect(later).toEqual([]);
    }
  });

  it("a new SyncManager on a half-synced chain (reopened from its store) finishes the sync", async () => {
    const hub = newHub();
    hub.latencyMs = 2;
    await node(hub, "peer", suite.f.main);
    const first = await node(hub, "local");
    const sync = first.startSync({headersPerRequest: 8, bodiesPerRequest: 4, parallelBodyRequests: 1});
    let stopping: Promise<void> | undefined;
    sync.events.on("progress", (progress) => {
      if (progress.currentBlock >= 25) stopping ??= sync.stop();
    });
    hub.connect("local", "peer");
    await waitFor(() => stopping !== undefined, "25 blocks");
    await stopping;
    const reached = first.chain.head().number;
    expect(reached).toBeGreaterThanOrEqual(25);
    expect(reached).toBeLessThan(60);
    expect(sync.progress()).toBeUndefined();

    const restarted = suite.track(await TestNode.create(hub, "local", first.store));
    expect(restarted.chain.head().number).toBe(reached);
    restarted.startSync();
    hub.connect("local", "peer");
    await waitFor(() => restarted.chain.head().number === 60, "head 60");
    expect(restarted.headHex()).toBe(hex(suite.f.main[59]!));
    const resumed = hub.requests.filter((r) => r.kind === "headersByNumber" && r.count === 192);
    expect(resumed.map((r) => r.start)).toEqual([reached + 1]);
  });

  it("reports progress while syncing and none once synced", async () => {
    const hub = newHub();
    hub.latencyMs = 2;
    await node(hub, "peer", suite.f.main);
    const local = await node(hub, "local", suite.f.main.slice(0, 5));
    const sync = local.startSync({headersPerRequest: 16, bodiesPerRequest: 8, parallelBodyRequests: 2});
    const seen: SyncProgress[] = [];
    const started: SyncProgress[] = [];
    sync.events.on("started", (event) => started.push(event.progress));
    sync.events.on("progress", () => seen.push(sync.progress() as SyncProgress));
    expect(sync.progress()).toBeUndefined();
    hub.connect("local", "peer");

    await waitFor(() => local.chain.head().number === 60 && sync.progress() === undefined, "synced");
    expect(started).toEqual([{startingBlock: 5, currentBlock: 5, highestBlock: 60, blocksPerSecond: 0}]);
    expect(seen.map((p) => p.currentBlock)).toEqual(Array.from({length: 55}, (_, i) => 6 + i));
    expect(seen.every((p) => p.startingBlock === 5 && p.highestBlock === 60)).toBe(true);
    expect(seen.at(-1)!.blocksPerSecond).toBeGreaterThan(0);
  });

  it("leaves a peer one block ahead to the relay, and syncs once it is minBlocksBehind ahead", async () => {
    const hub = newHub();
    const peer = await node(hub, "peer", suite.f.main.slice(0, 21));
    const local = await node(hub, "local", suite.f.main.slice(0, 20));
    const sync = local.startSync({minBlocksBehind: 2});
    hub.connect("local", "peer");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hub.requests).toEqual([]);
    expect(sync.progress()).toBeUndefined();

    await peer.importBlocks([suite.f.main[21]!]);
    peer.network.announceHead();
    await waitFor(() => local.chain.head().number === 22, "head 22");
    expect(local.headHex()).toBe(hex(suite.f.main[21]!));
  });
});
