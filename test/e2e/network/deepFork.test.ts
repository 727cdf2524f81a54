// Two regtest miners keeping 4 states each (state.retainBlocks 4) mine apart, deeper than that
// window, then connect (docs/operations.md §12). The lighter one cannot execute the heavier branch
// (the state of their common block, the genesis, is beyond its window): its sync from the other
// ends at the common ancestor with SYNC_FORK_BELOW_RETENTION, logged and counted, the peer stays
// connected and unblamed, and its head does not move. Then `xchain db import` of the heavier node's
// export into the lighter node's data directory stops at the branch's first block, naming it, and
// stores nothing.
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {afterEach, describe, expect, it, vi} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {runCli} from "../support/runCli.ts";
import {type RunningNode, startNode, tempDataDir} from "../support/xchainProcess.ts";

const RETAIN = ["--state.retainBlocks", "4", "--miner.blockTimeMs", "0"];

const running: RunningNode[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((node) => node.stop()));
});

async function start(args: string[], dataDir = tempDataDir()): Promise<RunningNode> {
  const node = await startNode([...RETAIN, ...args], dataDir);
  running.push(node);
  return node;
}

async function mine(node: RunningNode, blocks: number): Promise<void> {
  for (let i = 0; i < blocks; i++) await rpc(node.httpUrl, "evm_mine");
}

async function head(node: RunningNode): Promise<{number: number; hash: string}> {
  const block = await rpc<{number: string; hash: string}>(node.httpUrl, "eth_getBlockByNumber", ["latest", false]);
  return {number: Number(block.number), hash: block.hash};
}

/** The value of the sample `name{labels}` of a Prometheus text answer, 0 when absent. */
async function sample(metricsUrl: string, series: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe("miners that diverged deeper than the retention window", () => {
  it("the lighter one refuses the heavier branch, logged and counted, keeps its head and its peer", async () => {
    const light = await start(["--metrics.enabled", "true", "--metrics.port", "0"]);
    const heavy = await start([]);
    await mine(light, 12);
    await mine(heavy, 20);
    const before = await head(light);
    expect(before.number).toBe(12);
    const metricsUrl = light.logs.find((l) => typeof l.metrics === "string")?.metrics as string;

    expect(await rpc(light.httpUrl, "admin_addPeer", [heavy.p2pAddresses[0]])).toBe(true);
    const refused = 'xchain_sync_runs_total{result="SYNC_FORK_BELOW_RETENTION"}';
    await vi.waitFor(async () => expect(await sample(metricsUrl, refused)).toBeGreaterThanOrEqual(1), {
      timeout: 30_000,
      interval: 100,
    });

    const line = light.logs.find((l) => l.msg === "sync run ended" && l.code === "SYNC_FORK_BELOW_RETENTION");
    expect(line?.level).toBe(40);
    expect(line?.detail).toMatch(
      /its block 1 executes on the state after block 0, which was pruned \(the oldest state served is block 9\); a pruned node follows no reorganization deeper than state\.retainBlocks/,
    );
    expect(await head(light)).toEqual(before);
    // Not a fault of the peer: still connected, no block refused as invalid.
    expect(Number(await rpc<string>(light.httpUrl, "net_peerCount"))).toBe(1);
    expect(await sample(metricsUrl, 'xchain_blocks_refused_total{result="INVALID_BLOCK"}')).toBe(0);

    // The heavier chain's export does not import into the lighter node's data directory either.
    await heavy.stop();
    await light.stop();
    running.length = 0;
    const file = join(tempDataDir(), "heavy.rlp");
    expect((await runCli("db", "export", file, "--datadir", heavy.dataDir)).code).toBe(0);
    const config = join(tempDataDir(), "node.config.toml");
    writeFileSync(config, "[state]\nretainBlocks = 4\n");
    const imported = await runCli("db", "import", file, "--datadir", light.dataDir, "--config", config);
    expect(imported.code).toBe(2);
    expect(imported.stderr).toMatch(
      /block 1 \(0x[0-9a-f]{64}\), block 2 of .*heavy\.rlp: the file's chain forks from the database's below the states it keeps \(the state after block 0 was pruned; the oldest served is block 9\)/,
    );
    expect(imported.stderr).toContain("the chain stays at block 12");
    const again = await start([], light.dataDir);
    expect(await head(again)).toEqual(before);
  }, 120_000);
});
