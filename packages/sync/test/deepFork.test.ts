/**
 * A peer whose chain forks from ours below the states a pruned node keeps (docs/operations.md §12):
 * the run from it ends after its first headers of the branch are checked, with SYNC_FORK_BELOW_RETENTION,
 * before any body is fetched; the peer is not reported (unless those headers are invalid), nothing of its branch is stored, and the sync goes on with the
 * other peers. An archive node follows the same branch; gossip of such a block is ignored unreported.
 */
import {ImportResultKind} from "@xchain/chain";
import {PeerEvent} from "@xchain/p2p";
import type {Block} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {SyncError, SyncErrorCode, type SyncRunResult} from "../src/index.ts";
import type {FakeHub} from "./support/fakeNetwork.ts";
import {syncSuite} from "./support/suite.ts";
import {hex, newHub, TestNode, waitFor} from "./support/testNode.ts";

const suite = syncSuite();

const NEGATIVE = [PeerEvent.INVALID_BLOCK, PeerEvent.INVALID_HEADER, PeerEvent.UNEXPECTED_MESSAGE];

/**
 * On `hub`: "deep", on main's blocks 1–10 and the alt branch (11–40), claiming the heaviest chain so
 * that it is synced from first; "honest" on main's 60 blocks; and "local" on main's first 50 blocks,
 * keeping 4 states (pruned: the oldest served is block 47) or every one.
 */
async function nodes(hub: FakeHub, mode: "pruned" | "archive"): Promise<{local: TestNode; deep: TestNode}> {
  const deep = await suite.node(hub, "deep", [...suite.f.main.slice(0, 10), ...suite.f.alt]);
  deep.network.statusOverride = (status) => ({...status, totalDifficulty: status.totalDifficulty + 1_000_000n});
  await suite.node(hub, "honest", suite.f.main);
  const local = suite.track(await TestNode.create(hub, "local", undefined, {mode, retainBlocks: 4}));
  await local.importBlocks(suite.f.main.slice(0, 50));
  return {local, deep};
}

/** Starts local's sync, connects it to "deep" then "honest", and waits for main's block 60. */
async function syncToMain(hub: FakeHub, local: TestNode): Promise<SyncRunResult[]> {
  const runs: SyncRunResult[] = [];
  const sync = local.startSync({headersPerRequest: 16});
  sync.events.on("runEnded", (run) => runs.push(run));
  hub.connect("local", "deep");
  hub.connect("local", "honest");
  await waitFor(() => local.chain.head().number === 60, "head 60");
  expect(local.headHex()).toBe(hex(suite.f.main[59]!));
  return runs;
}

describe("a peer whose chain forks below the retention window", () => {
  it("is refused after its first headers, unreported, and the sync goes on with the other peers", async () => {
    const hub = newHub();
    const {local} = await nodes(hub, "pruned");
    const runs = await syncToMain(hub, local);

    const deepRun = runs.find((run) => run.peer === "deep");
    expect(deepRun?.imported).toBe(0);
    expect(deepRun?.error).toBeInstanceOf(SyncError);
    const error = deepRun!.error as SyncError;
    expect(error.type).toEqual({code: SyncErrorCode.FORK_BELOW_RETENTION, peer: "deep", number: 11, oldestBlock: 47});
    expect(error.message).toContain("executes on the state after block 10, which was pruned");
    expect(error.message).toContain("the oldest state served is block 47");
    // Refused before any body of the branch was asked for; nothing of it stored; nobody blamed.
    const altHashes = new Set(suite.f.alt.map((block) => bytesToHex(block.hash())));
    expect(hub.requests.some((r) => r.hashes?.some((h) => altHashes.has(h)))).toBe(false);
    expect(await local.chain.getHeader(suite.f.alt[0]!.hash())).toBeUndefined();
    expect(local.network.reports.filter((r) => NEGATIVE.includes(r.event))).toEqual([]);
    expect(runs.find((run) => run.peer === "honest")?.error).toBeUndefined();
  });

  it("blames a peer whose first headers of such a branch are invalid, as any run would", async () => {
    const hub = newHub();
    const {local, deep} = await nodes(hub, "pruned");
    // Header 11 carries block 12's merged-mining proof: its proof of work does not hold.
    const forged = suite.f.alt[0]!.header.withMergedMining(suite.f.alt[1]!.header.mergedMining!, hub.chainspec);
    deep.network.serve.headers = (headers) => headers.map((h) => (h.number === 11 ? forged : h));
    const runs = await syncToMain(hub, local);

    const error = runs.find((run) => run.peer === "deep")?.error as SyncError;
    expect(error.type).toMatchObject({code: SyncErrorCode.INVALID_HEADER, number: 11});
    expect(local.network.reportsAbout("deep")).toEqual([PeerEvent.INVALID_HEADER]);
  });

  it("ends the run when the window moves past the branch while it is imported, unreported", async () => {
    const hub = newHub();
    // A branch off main's block 47, the oldest state local serves when the run starts (head 50).
    const branch: Block[] = [];
    for (let n = 48; n <= 57; n++) {
      const parent = branch.at(-1) ?? suite.f.main[46]!;
      branch.push(await suite.f.builder.buildBlock({parent, coinbase: new Uint8Array(20).fill(7)}));
    }
    const side = await suite.node(hub, "side", [...suite.f.main.slice(0, 47), ...branch]);
    side.network.statusOverride = (status) => ({...status, totalDifficulty: status.totalDifficulty + 1_000_000n});
    const local = suite.track(await TestNode.create(hub, "local", undefined, {mode: "pruned", retainBlocks: 4}));
    await local.importBlocks(suite.f.main.slice(0, 50));
    const sync = local.startSync({headersPerRequest: 16});
    const runs: SyncRunResult[] = [];
    sync.events.on("runEnded", (run) => runs.push(run));
    // Main's next ten blocks arrive (as by gossip) after the branch's first block, queued in the chain
    // before its second: the window moves past the branch.
    let moved: Promise<unknown> | undefined;
    sync.events.on("progress", () => {
      moved ??= Promise.all(suite.f.main.slice(50, 60).map((block) => local.chain.importBlock(block)));
    });
    hub.connect("local", "side");

    await waitFor(() => runs.length > 0, "the run from side ended");
    await moved;
    const run = runs[0]!;
    expect(run.imported).toBe(1);
    expect(run.error).toBeInstanceOf(SyncError);
    expect((run.error as SyncError).type).toMatchObject({code: SyncErrorCode.FORK_BELOW_RETENTION, peer: "side"});
    expect(local.headHex()).toBe(hex(suite.f.main[59]!));
    expect(local.network.reports.filter((r) => NEGATIVE.includes(r.event))).toEqual([]);
  });

  it("is followed by an archive node, which stores the branch", async () => {
    const hub = newHub();
    const {local} = await nodes(hub, "archive");
    const runs = await syncToMain(hub, local);

    expect(runs.find((run) => run.peer === "deep")?.error).toBeUndefined();
    expect((await local.chain.getHeader(suite.f.alt.at(-1)!.hash()))?.number).toBe(40);
  });

  it("imports gossip of such a block once, refused PARENT_STATE_PRUNED, forwards it nowhere and reports nobody", async () => {
    const hub = newHub();
    const local = suite.track(await TestNode.create(hub, "local", undefined, {mode: "pruned", retainBlocks: 4}));
    await local.importBlocks(suite.f.main.slice(0, 50));
    local.startRelay();
    const imports: string[] = [];
    local.chain.events.on("import", ({result}) => imports.push(result.kind));

    expect(await local.network.deliver("block", "deep", suite.f.alt[0]!.encode())).toBe("ignore");
    expect(await local.network.deliver("block", "deep", suite.f.alt[0]!.encode())).toBe("ignore");
    // Refused by the chain as such, once: the repeat is not imported again.
    expect(imports).toEqual([ImportResultKind.PARENT_STATE_PRUNED]);
    expect(local.network.reportsAbout("deep")).toEqual([]);
    expect(await local.chain.getHeader(suite.f.alt[0]!.hash())).toBeUndefined();
    expect(local.headHex()).toBe(hex(suite.f.main[49]!));
  });
});
