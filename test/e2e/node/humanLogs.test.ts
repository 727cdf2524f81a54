// End-to-end: what a person reads: the start-up banner (regtest's dev accounts, the endpoints), a
// line per mined block, and `npm start` stopped by a signal sent to npm with no node left behind.
import {execFileSync, spawn} from "node:child_process";
import {join} from "node:path";
import {freePortFlags} from "@xchain/test-utils";
import {afterAll, describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode, tempDataDir} from "../support/xchainProcess.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const running: RunningNode[] = [];

afterAll(async () => {
  await Promise.all(running.filter((n) => n.process.exitCode === null).map((n) => n.stop("SIGKILL")));
});

async function until<T>(find: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error("not found in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("the node's logs", () => {
  it("prints the banner with the dev accounts and endpoints, then one line per mined block", async () => {
    // Without the transaction log an empty block gets its info line too (with it, debug: transactionLog.test.ts).
    const node = await startNode(["--miner.blockTimeMs", "0", "--log.transactions", "false"]);
    running.push(node);
    const banner = node.logs.find((l) => typeof l.network === "string");
    expect(banner).toMatchObject({network: "regtest", chainId: 33, dataDir: node.dataDir, head: 0});
    const accounts = node.logs.find((l) => Array.isArray(l.devAccounts));
    expect(accounts?.devAccounts).toHaveLength(10);
    expect(String(accounts?.msg)).toMatch(/PUBLIC/);
    expect(String(accounts?.msg)).toContain("0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826");
    expect(node.logs.find((l) => Array.isArray(l.p2pEndpoints))?.msg).toMatch(/^p2p endpoints: \/ip4\/127\.0\.0\.1\//);
    expect(node.logs.find((l) => typeof l.miner === "boolean")?.msg).toMatch(/^miner on: coinbase 0x/);
    expect(String(node.logs.find((l) => l.http === node.httpUrl)?.msg)).toContain(`${node.httpUrl} ${node.wsUrl}`);

    await rpc(node.httpUrl, "evm_mine");
    const line = await until(() => node.logs.find((l) => l.number === 1 && typeof l.importMs === "number"));
    expect(line.msg).toMatch(/^block 1 0x[0-9a-f]{8}…[0-9a-f]{4}: 0 txs, 0 gas, .* old, imported in \d+ ms$/);
    // No line per RPC request at info.
    expect(node.logs.filter((l) => /eth_|evm_mine/.test(String(l.msg)) && Number(l.level) >= 30)).toEqual([]);
    expect((await node.stop()).code).toBe(0);
  });

  it("stops `npm start` cleanly on SIGTERM sent to npm, leaving no node behind", async () => {
    const dataDir = tempDataDir();
    const npm = spawn("npm", ["start", "--", ...freePortFlags(dataDir)], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    npm.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => npm.on("close", (code) => resolve(code)));
    await until(() => (out.includes("JSON-RPC ready") ? true : undefined), 60_000);
    npm.kill("SIGTERM");
    await exited;
    await until(() => (out.includes('"msg":"stopped"') ? true : undefined), 5_000);
    const left = execFileSync("ps", ["-eo", "args"], {encoding: "utf8"})
      .split("\n")
      .filter((args) => args.includes(dataDir));
    expect(left).toEqual([]);
  }, 90_000);
});
