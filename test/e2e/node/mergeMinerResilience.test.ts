// End-to-end: scripts/merge-miner.mjs keeps mining through what a miner meets in a day. A connection
// closed before its answer (the keep-alive race: "other side closed") is retried on a fresh connection,
// one stderr line per retry, and a block is counted once though its submission went twice; an expected
// refusal (the submission rate limit) is one line, in the miner's stderr and in the node's log (no stack).
import {execFile} from "node:child_process";
import {createServer, type Server} from "node:http";
import type {AddressInfo} from "node:net";
import {join} from "node:path";
import {promisify} from "node:util";
import {afterAll, describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const MERGE_MINER = join(import.meta.dirname, "..", "..", "..", "scripts", "merge-miner.mjs");
const COINBASE = `0x${"00".repeat(18)}c0fe`;
const running: RunningNode[] = [];
const servers: Server[] = [];

afterAll(async () => {
  for (const server of servers) server.close();
  await Promise.all(running.map((node) => node.stop()));
});

async function start(args: string[]): Promise<RunningNode> {
  const node = await startNode(["--miner.enabled", "false", "--miner.coinbase", COINBASE, ...args]);
  running.push(node);
  return node;
}

async function mergeMine(url: string, blocks: number): Promise<{stdout: string; stderr: string}> {
  const args = [MERGE_MINER, "--rpc", url, "--mode", "mnr", "--blocks", String(blocks)];
  return promisify(execFile)(process.execPath, args, {timeout: 60_000});
}

/**
 * A keep-alive proxy to `target` on a free loopback port. The first request whose body names `method` is
 * forwarded (the node acts on it) and its connection then closed without an answer, as a server closing
 * an idle keep-alive connection just as the request arrives; every other request is answered.
 */
async function dropOnce(target: string, method: string): Promise<{url: string; connections: () => number}> {
  let dropped = false;
  let connections = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const answer = await fetch(target, {method: "POST", headers: {"content-type": "application/json"}, body});
    const text = await answer.text();
    if (!dropped && body.includes(`"${method}"`)) {
      dropped = true;
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, {"content-type": "application/json"}).end(text);
  });
  server.on("connection", () => connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections};
}

describe("scripts/merge-miner.mjs through the frictions of a miner's day", () => {
  it("retries a submission whose connection closed unanswered on a fresh connection, and counts its block once", async () => {
    const node = await start([]);
    const proxy = await dropOnce(node.httpUrl, "mnr_submitBitcoinBlock");
    const {stdout, stderr} = await mergeMine(proxy.url, 2);

    const retries = stderr.split("\n").filter((line) => line.includes("retry"));
    expect(retries).toEqual([
      expect.stringMatching(
        /^mnr_submitBitcoinBlock: connection lost \(other side closed\); retry 1\/3 on a fresh connection$/,
      ),
    ]);
    expect(proxy.connections()).toBeGreaterThanOrEqual(2);
    // The dropped submission was imported; its retry found the block there: two blocks, each printed once.
    expect(stdout.match(/^mined block/gm)).toHaveLength(2);
    expect(stdout).toMatch(/^mined block 1 0x[0-9a-f]{64} \(mnr, EXIST\)$/m);
    expect(stdout).toMatch(/^mined block 2 0x[0-9a-f]{64} \(mnr, IMPORTED_BEST\)$/m);
    expect(await rpc(node.httpUrl, "eth_blockNumber")).toBe("0x2");
  });

  it("tells each refusal of the submission rate limit in one line without a stack, miner and node alike", async () => {
    // One submission an hour: after the first block, every solution is refused, whatever the machine's speed.
    const node = await start(["--miner.submissionRateLimitMs", "3600000"]);
    expect((await mergeMine(node.httpUrl, 1)).stdout).toMatch(/^mined block 1 /);
    const refusedRun = await mergeMine(node.httpUrl, 1).then(
      () => undefined,
      (e: {code: number; stdout: string; stderr: string}) => e,
    );
    // It tried on new work after each refusal, and gave up after 10 in a row.
    expect(refusedRun?.code).toBe(1);
    expect(refusedRun?.stdout).toBe("");
    const refused = "Cannot publish block, block submission rate limit exceeded";
    const lines = refusedRun?.stderr.split("\n").filter(Boolean) ?? [];
    expect(lines).toEqual(Array(10).fill(`mnr_submitBitcoinBlock: -33000 ${refused}; mining on new work`));

    await expect.poll(() => node.logs.filter((l) => String(l.msg).includes(refused)).length).toBe(10);
    for (const entry of node.logs.filter((l) => String(l.msg).includes(refused))) {
      expect(entry).toMatchObject({level: 30, method: "mnr_submitBitcoinBlock", code: "MINER_RATE_LIMITED"});
      expect(entry.msg).toBe(`mnr_submitBitcoinBlock refused: ${refused}`);
      expect(JSON.stringify(entry)).not.toContain("stack");
    }
  });
});
