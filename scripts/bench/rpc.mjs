// JSON-RPC throughput of xchain next to anvil and the platform's floor, on loopback, in one run:
// requests/s, p50/p99 latency and the server's CPU per request at 32 requests in flight (keep-alive
// HTTP) for eth_blockNumber, eth_getBalance, eth_call of an ERC-20 balanceOf, a batch of 50
// eth_getBalance and eth_getLogs over 20,000 logs; the end-to-end rate of 2,000 signed transfers
// from 50 senders (sent 32 at a time, until every receipt); then the ratios xchain/anvil and
// xchain/floor of each. The read loads are driven by the Node load generator and by `wrk` (when
// installed: one thread, 32 connections), so that a figure bound by the client shows as such: the
// server's CPU per request stays put while its share of a core falls below 100 %. The floor is a
// minimal `node:http` server that parses the JSON and answers a fixed result (rpc/floor.mjs).
// anvil is `anvil` on the PATH or @foundry-rs/anvil 1.7.1, installed into ~/.cache/xchain-bench on
// first use (XCHAIN_BENCH_CACHE to change); without it (`--no-anvil`, or the install fails) the
// table has no anvil column. CPU is utime+stime from /proc/<pid>/stat (Linux). Needs a build.
//
//   node scripts/bench/rpc.mjs [secondsPerMethod=5] [--driver=node|wrk|both] [--no-anvil] [--loads=a,b] [--threads] [--cpu-prof=<dir>] [--before=<checkout>]
//
// `--loads` keeps the loads whose name contains one of the given parts (and skips the burst).
// `--threads` adds the xchain node's CPU per request thread by thread (the main thread, then the
// others above 2 µs: the call worker, V8's helpers, libuv's pool), for the split of a request's cost.
// `--before` adds another checkout's built node as a column ("before"), measured right after this one.
// `--cpu-prof` runs the xchain node under `node --cpu-prof`: its main thread and each call worker
// write a profile into <dir> when the node stops.
import {hexToBytes, keccak256, utf8ToBytes} from "@xchain/utils";
import {cpuMicros, threadCpuMicros} from "./rpc/cpu.mjs";
import {DISTINCT, measure} from "./rpc/loadGenerator.mjs";
import {anvilBinary, startAnvil, startFloor, startXchain} from "./rpc/servers.mjs";
import {BURST_SIZE, burst, LOG_COUNT, prepare} from "./rpc/workload.mjs";
import {hasWrk, measureWrk} from "./rpc/wrk.mjs";

const args = process.argv.slice(2);
const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const durationMs = Number(args.find((a) => !a.startsWith("--")) ?? 5) * 1000;
const wrk = hasWrk();
const driverOption = option("driver") ?? (wrk ? "both" : "node");
if (driverOption !== "node" && !wrk) throw new Error("wrk is not installed (Debian: apt-get install wrk)");
const drivers = driverOption === "both" ? ["node", "wrk"] : [driverOption];
const loadFilter = option("loads")?.split(",");
const profileDir = option("cpu-prof");
const before = option("before");
/** anvil's first prefunded account (its default mnemonic). */
const ANVIL_FUNDER = hexToBytes("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
const COW = keccak256(utf8ToBytes("cow"));
const BURST = `${BURST_SIZE} transfers, send to last receipt`;

function request(method, params) {
  return {jsonrpc: "2.0", id: 1, method, params};
}

/** The read loads, each a request body built from the prepared chain (the floor needs none). */
function loads(
  chain = {funder: bytesOfZero(20), token: bytesOfZero(20), emitter: bytesOfZero(20), balanceOfData: "0x"},
) {
  const balance = request("eth_getBalance", [chain.funder, "latest"]);
  const all = [
    ["eth_blockNumber", request("eth_blockNumber", [])],
    ["eth_getBalance", balance],
    // The same call again and again (xchain answers it from its answer cache after the first) and a
    // distinct holder each time (every call runs): always reported as two rows.
    ["eth_call balanceOf, repeated", request("eth_call", [{to: chain.token, data: chain.balanceOfData}, "latest"])],
    [
      "eth_call balanceOf, distinct",
      request("eth_call", [{to: chain.token, data: `${chain.balanceOfData.slice(0, 34)}${DISTINCT}`}, "latest"]),
    ],
    ["batch of 50 eth_getBalance", Array.from({length: 50}, (_, i) => ({...balance, id: i + 1}))],
    [
      `eth_getLogs (${LOG_COUNT} logs)`,
      request("eth_getLogs", [{address: chain.emitter, fromBlock: "0x0", toBlock: "latest"}]),
    ],
  ];
  return loadFilter ? all.filter(([name]) => loadFilter.some((part) => name.includes(part))) : all;
}

function bytesOfZero(n) {
  return `0x${"00".repeat(n)}`;
}

/** Runs `work` (resolving with a rate and a request count) and adds the server's CPU µs per request and its share of a core. */
async function withCpu(server, work) {
  let cpu0;
  let threads0;
  let t0;
  const onStart = () => {
    cpu0 = cpuMicros(server.pid);
    threads0 = threadCpuMicros(server.pid);
    t0 = performance.now();
  };
  const result = await work(onStart);
  const cpu = cpuMicros(server.pid) - cpu0;
  const wallMicros = (performance.now() - t0) * 1000;
  const threads = [...threadCpuMicros(server.pid)].map(([tid, micros]) => ({
    main: tid === server.pid,
    perRequest: (micros - (threads0.get(tid) ?? 0)) / result.count,
  }));
  return {...result, cpuPerRequest: cpu / result.count, coreShare: cpu / wallMicros, threads};
}

async function run(server, funderKey) {
  const results = new Map();
  let chain;
  if (funderKey) {
    process.stderr.write(`${server.name}: preparing the chain\n`);
    chain = await prepare(server.url, funderKey);
  }
  for (const [name, body] of loads(chain)) {
    const text = JSON.stringify(body);
    for (const driver of drivers) {
      process.stderr.write(`${server.name}: ${name} (${driver})\n`);
      const options = {durationMs};
      const result = await withCpu(server, (onStart) =>
        driver === "wrk"
          ? measureWrk(server.url, text, {...options, onStart})
          : measure(server.url, text, {...options, onStart}),
      );
      results.set(`${name}|${driver}`, result);
      if (args.includes("--threads") && (server.name === "xchain" || server.name === "before")) {
        const split = result.threads
          .filter((t) => t.main || t.perRequest >= 2)
          .sort((a, b) => Number(b.main) - Number(a.main) || b.perRequest - a.perRequest)
          .map((t) => `${t.main ? "main " : ""}${t.perRequest.toFixed(1)}`);
        process.stderr.write(`  CPU µs per request by thread: ${split.join(", ")}\n`);
      }
    }
  }
  if (funderKey && !loadFilter) {
    process.stderr.write(`${server.name}: burst of ${BURST_SIZE} transfers\n`);
    results.set(
      `${BURST}|node`,
      await withCpu(server, async (onStart) => {
        onStart();
        return {...(await burst(server.url, chain)), count: BURST_SIZE};
      }),
    );
  }
  return results;
}

async function measured(start, funderKey) {
  const server = await start();
  try {
    return await run(server, funderKey);
  } finally {
    await server.stop();
  }
}

function anvilOrNothing() {
  if (args.includes("--no-anvil")) return false;
  try {
    anvilBinary();
    return true;
  } catch (e) {
    process.stderr.write(`anvil is not available, xchain-only figures: ${e.message}\n`);
    return false;
  }
}

const nodeFlags = profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
const columns = [["xchain", await measured(() => startXchain(nodeFlags), COW)]];
if (before) columns.push(["before", await measured(() => startXchain(nodeFlags, [], before), COW)]);
if (anvilOrNothing()) columns.push(["anvil", await measured(startAnvil, ANVIL_FUNDER)]);
columns.push(["floor", await measured(startFloor, undefined)]);

const cell = (r) =>
  r === undefined
    ? ""
    : `${r.perSecond.toFixed(0).padStart(6)}/s ${r.p50 === undefined ? "" : `${r.p50.toFixed(2)}/${r.p99.toFixed(2)} ms `}` +
      `${r.cpuPerRequest.toFixed(0).padStart(5)} µs ${(r.coreShare * 100).toFixed(0).padStart(3)}%`;
const ratio = (mine, other) => (other === undefined ? "" : (mine.perSecond / other.perSecond).toFixed(2));
console.log("per server: rate, p50/p99 latency, server CPU per request, server's share of one core");
const names = columns.map(([name]) => name);
console.log(
  `${"load".padEnd(36)} ${"driver".padEnd(6)} ${names.map((n) => n.padEnd(40)).join(" ")} ${names
    .slice(1)
    .map((n) => `xchain/${n}`)
    .join(" ")}`,
);
for (const [key, mine] of columns[0][1]) {
  const [name, driver] = key.split("|");
  const others = columns.slice(1).map(([, results]) => results.get(key));
  console.log(
    `${name.padEnd(36)} ${driver.padEnd(6)} ${[mine, ...others].map((r) => cell(r).padEnd(40)).join(" ")} ${others
      .map((r, i) => ratio(mine, r).padEnd(`xchain/${names[i + 1]}`.length))
      .join(" ")}`,
  );
}
