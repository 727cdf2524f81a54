// Drives a read load with `wrk` (Debian package `wrk`) instead of the Node load generator: a client
// in C that is not the bottleneck for cheap methods. One thread, `connections` keep-alive
// connections, the body POSTed by jsonrpc.lua.
import {execFile, execFileSync} from "node:child_process";
import {mkdtempSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {promisify} from "node:util";
import {distinctBody, keepAliveAgent, nextDistinctRun, post} from "./loadGenerator.mjs";

const SCRIPT = join(import.meta.dirname, "jsonrpc.lua");
const run = promisify(execFile);

/** Whether `wrk` is on the PATH. */
export function hasWrk() {
  try {
    execFileSync("wrk", ["--version"], {stdio: "ignore"});
    return true;
  } catch (e) {
    // wrk --version prints its usage and exits with 1.
    return e.status === 1;
  }
}

/** wrk's "1.23ms" / "850.00us" / "1.02s" in milliseconds. */
function millis(text) {
  const [, value, unit] = /^([\d.]+)(us|ms|s)$/.exec(text) ?? [];
  return Number(value) * ({us: 0.001, ms: 1, s: 1000}[unit] ?? Number.NaN);
}

/**
 * Runs wrk POSTing `body` for 1 s of warm-up, then `durationMs` measured. The first answer is
 * checked for a JSON-RPC error. Returns requests per second, p50/p99 in ms and the requests counted.
 */
export async function measureWrk(url, body, {connections = 32, threads = 1, durationMs = 5000, onStart} = {}) {
  const agent = keepAliveAgent(1);
  const first = (await post(agent, url, distinctBody(body, nextDistinctRun(), 0))).toString();
  agent.destroy();
  if (first.includes('"error"')) throw new Error(`error answer: ${first.slice(0, 300)}`);
  const bodyFile = join(mkdtempSync(join(tmpdir(), "xchain-wrk-")), "body.json");
  writeFileSync(bodyFile, body);
  const args = (ms) => [
    "-t",
    String(threads),
    "-c",
    String(connections),
    "-d",
    `${ms / 1000}s`,
    "--latency",
    "-s",
    SCRIPT,
    url,
  ];
  const env = () => ({...process.env, XCHAIN_WRK_BODY: bodyFile, XCHAIN_WRK_RUN: String(nextDistinctRun())});
  await run("wrk", args(1000), {env: env()});
  onStart?.();
  const {stdout} = await run("wrk", args(durationMs), {env: env()});
  if (/Non-2xx or 3xx responses/.test(stdout)) throw new Error(`non-2xx answers:\n${stdout}`);
  const count = Number(/(\d+) requests in/.exec(stdout)?.[1]);
  return {
    perSecond: Number(/Requests\/sec:\s*([\d.]+)/.exec(stdout)?.[1]),
    p50: millis(/^\s*50%\s+(\S+)/m.exec(stdout)?.[1] ?? ""),
    p99: millis(/^\s*99%\s+(\S+)/m.exec(stdout)?.[1] ?? ""),
    count,
  };
}
