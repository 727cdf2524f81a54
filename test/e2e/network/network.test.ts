// Several real nodes (the CLI, child processes) on loopback: sync from genesis and following the
// tip, a transaction sent to one node mined by another, a partition that heals onto the heaviest
// branch, and a node restarted in the middle of a sync.
import {afterEach, describe, expect, it, vi} from "vitest";
import {rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {type RunningNode, startNode, tempDataDir} from "../support/xchainProcess.ts";

const running: RunningNode[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((node) => node.stop()));
});

/** A node that mines a block every `blockTimeMs` (and as soon as transactions are pending). */
async function miner(args: string[] = [], blockTimeMs = 150, dataDir = tempDataDir()): Promise<RunningNode> {
  const node = await startNode(["--miner.blockTimeMs", String(blockTimeMs), ...args], dataDir);
  running.push(node);
  return node;
}

/** A node that does not mine, dialling `bootnodes`. */
async function follower(bootnodes: RunningNode[], dataDir = tempDataDir(), args: string[] = []): Promise<RunningNode> {
  const node = await startNode(
    ["--miner.enabled", "false", "--p2p.bootnodes", bootnodes.map((n) => n.p2pAddresses[0]).join(","), ...args],
    dataDir,
  );
  running.push(node);
  return node;
}

const blockNumber = async (node: RunningNode) => Number(await rpc<string>(node.httpUrl, "eth_blockNumber"));
const headHash = async (node: RunningNode) =>
  (await rpc<{hash: string}>(node.httpUrl, "eth_getBlockByNumber", ["latest", false])).hash;

/** Waits until every node has the same head hash, at least `minNumber`. */
async function converge(nodes: RunningNode[], minNumber: number, timeout = 30_000): Promise<string> {
  let hash = "";
  await vi.waitFor(
    async () => {
      const hashes = await Promise.all(nodes.map(headHash));
      const numbers = await Promise.all(nodes.map(blockNumber));
      expect(new Set(hashes).size).toBe(1);
      expect(Math.min(...numbers)).toBeGreaterThanOrEqual(minNumber);
      hash = hashes[0] as string;
    },
    {timeout, interval: 200},
  );
  return hash;
}

describe("a network of nodes", () => {
  it("syncs two followers from genesis, then they follow the miner's tip", async () => {
    const a = await miner();
    await vi.waitFor(async () => expect(await blockNumber(a)).toBeGreaterThanOrEqual(20), {timeout: 20_000});
    const b = await follower([a]);
    const c = await follower([a]);
    const synced = await blockNumber(a);
    await converge([a, b, c], synced);
    // Following the tip: new blocks arrive by gossip.
    await converge([a, b, c], synced + 5);
    expect(await rpc(b.httpUrl, "net_peerCount")).not.toBe("0x0");
    expect(await rpc<string[]>(b.httpUrl, "net_peerList")).toHaveLength(1);
    expect(await rpc(b.httpUrl, "eth_syncing")).toBe(false);
    // The p2p layer's queue of received messages, through the node's wiring (docs/p2p.md).
    expect(await rpc(b.httpUrl, "debug_wireProtocolQueueSize")).toMatch(/^0x[0-9a-f]+$/);
  });

  it("mines on the miner a transaction sent to a follower", async () => {
    const a = await miner([], 500);
    const c = await follower([a]);
    await converge([a, c], 1);
    const [from] = await rpc<string[]>(c.httpUrl, "eth_accounts");
    const to = `0x${"ab".repeat(20)}`;
    const hash = await rpc<string>(c.httpUrl, "eth_sendTransaction", [{from, to, value: "0x7"}]);
    const receipt = await waitForReceipt(a.httpUrl, hash);
    expect(receipt.status).toBe("0x1");
    await vi.waitFor(async () => expect(await rpc(c.httpUrl, "eth_getBalance", [to, "latest"])).toBe("0x7"), {
      timeout: 10_000,
    });
  });

  it("heals a partition: both miners end on the heavier branch", async () => {
    // Apart: A mines fast, B slowly, on their own.
    const a = await miner([], 100);
    const bDir = tempDataDir();
    const b = await miner([], 400, bDir);
    await vi.waitFor(async () => expect(await blockNumber(a)).toBeGreaterThanOrEqual(30), {timeout: 20_000});
    const bBranch = await headHash(b);
    expect(await headHash(a)).not.toBe(bBranch);
    // Healed: B comes back connected to A and goes on mining; A's longer branch is the heavier one.
    await b.stop();
    running.splice(running.indexOf(b), 1);
    const healed = await miner(["--p2p.bootnodes", a.p2pAddresses[0] as string], 400, bDir);
    const aHeight = await blockNumber(a);
    const aBlock = await rpc<{hash: string}>(a.httpUrl, "eth_getBlockByNumber", [`0x${aHeight.toString(16)}`, false]);
    await vi.waitFor(async () => expect(await blockNumber(healed)).toBeGreaterThan(aHeight), {timeout: 30_000});
    // Both stop mining, then agree; A's branch is in the common chain, B's old head is not.
    await Promise.all([a, healed].map((n) => rpc(n.httpUrl, "evm_stopMining")));
    const number = Math.max(await blockNumber(a), await blockNumber(healed));
    await converge([a, healed], number);
    const onHealed = await rpc<{hash: string}>(healed.httpUrl, "eth_getBlockByNumber", [
      `0x${aHeight.toString(16)}`,
      false,
    ]);
    expect(onHealed.hash).toBe(aBlock.hash);
    expect(await rpc(healed.httpUrl, "eth_getBlockByHash", [bBranch, false])).not.toBeNull();
    expect(await headHash(healed)).not.toBe(bBranch);
  });

  it("finishes a sync after a restart in the middle of it", async () => {
    const a = await miner([], 25);
    await vi.waitFor(async () => expect(await blockNumber(a)).toBeGreaterThanOrEqual(200), {timeout: 30_000});
    await a.stop();
    running.splice(running.indexOf(a), 1);
    // A stops mining (same chain, miner off), so the target stays put while B syncs it.
    const still = await startNode(["--miner.enabled", "false"], a.dataDir);
    running.push(still);
    const target = await blockNumber(still);
    const dir = tempDataDir();
    // One body per request, one request at a time: the sync takes many round trips, and the stop
    // lands in the middle of it.
    const slow = ["--sync.headersPerRequest", "8", "--sync.bodiesPerRequest", "1", "--sync.parallelBodyRequests", "1"];
    const b = await follower([still], dir, slow);
    await vi.waitFor(async () => expect(await blockNumber(b)).toBeGreaterThan(0), {timeout: 20_000, interval: 20});
    await b.stop();
    running.splice(running.indexOf(b), 1);
    const restarted = await follower([still], dir);
    const resumedFrom = await blockNumber(restarted);
    expect(resumedFrom).toBeGreaterThan(0);
    expect(resumedFrom).toBeLessThan(target);
    await converge([still, restarted], target);
  });
});
