// One API key hammered far over its rate gets 429s while another key's requests keep their latency
// (docs/gateway.md §3): the median latency of the calm key during the flood stays within a generous
// bound of its median measured before it, in the same run (the machine is shared and noisy).
import {Agent, request} from "node:http";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {type RunningNode, runXchain, startNode, tempDataDir} from "../support/xchainProcess.ts";

const SAMPLES = 40;
const FLOOD_WORKERS = 4;

let node: RunningNode;
let dataDir: string;
const keepAlive = new Agent({keepAlive: true, maxSockets: FLOOD_WORKERS + 1});

async function addKey(args: string[]): Promise<string> {
  const exit = await runXchain(["keys", "add", "--datadir", dataDir, ...args]);
  expect(exit.code, exit.stderr).toBe(0);
  return /^key\s+([0-9a-f]{64})$/m.exec(exit.stdout)?.[1] as string;
}

/** POSTs eth_blockNumber at `/<key>`: the HTTP status and the milliseconds it took. */
function call(key: string): Promise<{status: number; ms: number}> {
  const url = new URL(node.httpUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {host: url.hostname, port: url.port, path: `/${key}`, method: "POST", agent: keepAlive},
      (res) => {
        res.resume();
        res.on("end", () => resolve({status: res.statusCode ?? 0, ms: performance.now() - started}));
      },
    );
    req.setHeader("content-type", "application/json");
    req.on("error", reject);
    req.end('{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}');
  });
}

async function medianLatency(key: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const {status, ms} = await call(key);
    expect(status).toBe(200);
    times.push(ms);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

let flood: string;
let calm: string;

beforeAll(async () => {
  dataDir = tempDataDir();
  flood = await addKey(["--rps", "5", "--burst", "5"]);
  calm = await addKey(["--rps", "100000", "--burst", "100000"]);
  node = await startNode(["--rpc.gateway.enabled"], dataDir);
}, 60_000);

afterAll(async () => {
  keepAlive.destroy();
  await node?.stop();
});

describe("gateway under load", () => {
  it("answers a flooding key 429 while another key keeps its latency", async () => {
    const baseline = await medianLatency(calm);
    let flooding = true;
    const statuses = new Map<number, number>();
    const worker = async () => {
      while (flooding) {
        const {status} = await call(flood);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    const workers = Array.from({length: FLOOD_WORKERS}, worker);
    // Let the flood get going before measuring.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const during = await medianLatency(calm);
    flooding = false;
    await Promise.all(workers);
    console.info(
      `gateway load: calm key median ${baseline.toFixed(2)} ms before, ${during.toFixed(2)} ms during a flood of ` +
        `${[...statuses.values()].reduce((a, b) => a + b, 0)} requests (${JSON.stringify(Object.fromEntries(statuses))})`,
    );
    expect(statuses.get(429) ?? 0).toBeGreaterThan(50);
    expect(statuses.get(200) ?? 0).toBeLessThan(statuses.get(429) ?? 0);
    expect(during).toBeLessThanOrEqual(3 * baseline + 20);
  }, 60_000);
});
