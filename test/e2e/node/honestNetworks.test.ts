// End-to-end: a testnet node alone says so at start-up, hands out no mining work until it has
// seen a peer unless told to mine alone (miner.allowSolo), and with bootnodes that never answer
// does not claim to be synced (eth_syncing, /ready).
import {afterAll, describe, expect, it} from "vitest";
import {JsonRpcFault, rpc} from "../support/jsonRpc.ts";
import {type RunningNode, runXchain, startNode, tempDataDir} from "../support/xchainProcess.ts";

const running: RunningNode[] = [];
afterAll(async () => {
  await Promise.all(running.filter((n) => n.process.exitCode === null).map((n) => n.stop("SIGKILL")));
});

async function start(args: string[]): Promise<RunningNode> {
  const node = await startNode(["--network", "testnet", ...args]);
  running.push(node);
  return node;
}

async function fault(url: string, method: string): Promise<JsonRpcFault> {
  try {
    await rpc(url, method);
  } catch (e) {
    if (e instanceof JsonRpcFault) return e;
    throw e;
  }
  throw new Error(`${method} answered`);
}

describe("a testnet node without peers", () => {
  it("warns that it is alone on xchain's own testnet and refuses mining work", async () => {
    const node = await start([]);
    const warning = node.logs.find((l) => l.level === 40 && String(l.msg).includes("not Rootstock's"));
    expect(warning?.msg).toContain("testnet (chain id 31) is xchain's own testnet, not Rootstock's");
    expect(warning?.msg).toContain("--p2p.bootnodes");
    for (const method of ["mnr_getWork", "eth_getWork"]) {
      const error = await fault(node.httpUrl, method);
      expect(error.code).toBe(-33000);
      expect(error.message).toContain("this testnet node has not seen a peer yet");
      expect(error.message).toContain("miner.allowSolo = true (--miner.allowSolo)");
    }
    // No bootnodes: nothing to wait for, so not syncing.
    expect(await rpc(node.httpUrl, "eth_syncing")).toBe(false);
    expect((await node.stop()).code).toBe(0);
  });

  it("serves mining work with --miner.allowSolo, and its warning says so", async () => {
    const node = await start(["--miner.allowSolo"]);
    const warning = node.logs.find((l) => l.level === 40 && String(l.msg).includes("not Rootstock's"));
    expect(warning?.msg).toContain("miner.allowSolo is on, so mining work is served alone");
    expect(warning?.msg).not.toContain("refused");
    const work = await rpc<{blockHashForMergedMining: string; height: string}>(node.httpUrl, "mnr_getWork");
    expect(work.blockHashForMergedMining).toMatch(/^0x[0-9a-f]{64}$/);
    expect(work.height).toBe("0x1");
    expect(await rpc<string[]>(node.httpUrl, "eth_getWork")).toHaveLength(3);
    expect((await node.stop()).code).toBe(0);
  });

  it("with bootnodes that never answer, reports a sync not begun and is not ready", async () => {
    const idDir = tempDataDir();
    const id = (await runXchain(["p2p-id", "--datadir", idDir])).stdout.trim();
    // Port 9 (discard) on loopback: nobody answers there.
    const node = await start(["--p2p.bootnodes", `/ip4/127.0.0.1/tcp/9/p2p/${id}`]);
    expect(node.logs.some((l) => String(l.msg).includes("not Rootstock's"))).toBe(false);
    expect(await rpc(node.httpUrl, "eth_syncing")).toEqual({
      startingBlock: "0x0",
      currentBlock: "0x0",
      highestBlock: "0x0",
    });
    const ready = await fetch(`${node.httpUrl}/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as {reason: string}).reason).toMatch(/^no peer seen yet/);
    expect((await node.stop()).code).toBe(0);
  });
});
