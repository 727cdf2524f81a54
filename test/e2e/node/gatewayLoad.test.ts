// One API key hammered far over its rate gets 429s while another key's requests are all served
// (docs/gateway.md §3). The flood's 200s stay within what its token bucket allows for the time the
// flood took (a bound that a slower machine only loosens); the calm key's latency before and during
// the flood is printed, not bounded, since a loaded machine stretches it.
import {Agent, request} from "node:http";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {type RunningNode, runXchain, startNode, tempDataDir} from "../support/xchainProcess.ts";

const SAMPLES = 40;
const FLOOD_WORKERS = 4;
const FLOOD_PER_WORKER = 50;
/** The flooding key's rate and burst (requests per second, bucket size). */
const FLOOD_RPS = 5;

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
  flood = await addKey(["--rps", String(FLOOD_RPS), "--burst", String(FLOOD_RPS)]);
  calm = await addKey(["--rps", "100000", "--burst", "100000"]);
  node = await startNode(["--rpc.gateway.enabled"], dataDir);
}, 60_000);

afterAll(async () => {
  keepAlive.destroy();
  await node?.stop();
});

describe("gateway under load", () => {
  it("answers a flooding key 429 while another key is served", async () => {
    const baseline = await medianLatency(calm);
    const statuses = new Map<number, number>();
    const started = performance.now();
    const worker = async () => {
      for (let i = 0; i < FLOOD_PER_WORKER; i++) {
        const {status} = await call(flood);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    let flooding = true;
    const workers = Promise.all(Array.from({length: FLOOD_WORKERS}, worker)).finally(() => {
      flooding = false;
    });
    // The calm key while the flood runs: every request served (medianLatency checks each is a 200).
    const during = await medianLatency(calm);
    const calmServedDuringFlood = flooding;
    await workers;
    const floodSeconds = (performance.now() - started) / 1000;
    console.info(
      `gateway load: calm key median ${baseline.toFixed(2)} ms before, ${during.toFixed(2)} ms during a flood of ` +
        `${FLOOD_WORKERS * FLOOD_PER_WORKER} requests in ${floodSeconds.toFixed(1)} s (${JSON.stringify(Object.fromEntries(statuses))})`,
    );
    expect(calmServedDuringFlood).toBe(true);
    expect((statuses.get(200) ?? 0) + (statuses.get(429) ?? 0)).toBe(FLOOD_WORKERS * FLOOD_PER_WORKER);
    // The bucket: its burst plus its rate over the flood's time, plus one refill in the rounding.
    expect(statuses.get(200) ?? 0).toBeLessThanOrEqual(FLOOD_RPS + Math.ceil(FLOOD_RPS * floodSeconds) + 1);
    expect(statuses.get(429) ?? 0).toBeGreaterThan(0);
  }, 60_000);
});
