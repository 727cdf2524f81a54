// Sync at scale over loopback (docs/performance.md §12): a synthetic regtest chain of `--blocks` blocks
// with a mainnet-like mix (sync/mainnetChain.mjs: many empty blocks, value and ERC-20 transfers,
// storage-writing calls, a few deployments, `--accounts` accounts), built in process once and cached
// under --dir (a rerun with the same parameters skips the build). Then, in the same run:
//   1. local import: `xchain db import` of the chain's block files into node A's fresh data directory
//      (the setup blocks first, untimed; then the measured blocks, timed from spawn to exit);
//   2. sync: A started on it (`xchain start`, miner off), and a fresh node B with A as its bootnode, both
//      on loopback with free ports; B is timed from the poll of eth_blockNumber (every 50 ms) that sees it
//      past the setup blocks to the one that sees A's head, so both sides time the same measured blocks;
//   3. propagation: 50 times `evm_mine` on A and the time until B's `newHeads` notification of it.
// Prints blocks/s, tx/s, Mgas/s and the CPU time (all threads, and the main thread alone, from /proc) of
// each side, sync / import (target >= 0.9), Mgas/s (target >= 60) and the ratio to rskj's reported
// 16-17 blocks/s, with the load average. Needs a build (`npx tsc -b`).
//
//   node scripts/bench/sync.mjs [--blocks 100000] [--accounts 20000] [--holders 2000] [--txs 4] [--seed 1]
//     [--dir ~/.cache/xchain-bench/sync] [--propagation 50]
//
// --txs: the mean transactions of a non-empty block. SYNC_BENCH_CPU_PROF=<dir> writes CPU profiles (node
// --cpu-prof) of A (the serving node) into <dir>/A and of B (the syncing node) into <dir>/B.
// SYNC_BENCH_B_BIN=<another checkout>/packages/node/bin/xchain.js runs B from that checkout's build (a
// before/after comparison of the syncing node on the same chain and the same A).
import {spawn} from "node:child_process";
import {once} from "node:events";
import {mkdirSync, mkdtempSync, readFileSync, rmSync} from "node:fs";
import {homedir, loadavg, tmpdir} from "node:os";
import {join, relative, resolve} from "node:path";
import {setTimeout as sleep} from "node:timers/promises";
import {parseArgs} from "node:util";
import {secp256k1Backend} from "@xchain/utils";
import WebSocket from "ws";
import {startNode, stopNode} from "./nodeProcess.mjs";
import {call, keepAliveAgent} from "./rpc/loadGenerator.mjs";
import {mainnetChain} from "./sync/mainnetChain.mjs";

const {values: opts} = parseArgs({
  options: {
    blocks: {type: "string", default: "100000"},
    accounts: {type: "string", default: "20000"},
    holders: {type: "string", default: "2000"},
    txs: {type: "string", default: "4"},
    seed: {type: "string", default: "1"},
    dir: {type: "string", default: join(homedir(), ".cache", "xchain-bench", "sync")},
    propagation: {type: "string", default: "50"},
  },
});
const params = Object.fromEntries(
  ["blocks", "accounts", "holders", "txs", "seed", "propagation"].map((flag) => {
    const value = Number(opts[flag]);
    if (!Number.isSafeInteger(value) || value < (flag === "propagation" ? 0 : 1))
      throw new Error(`--${flag}: a whole number, not ${opts[flag]}`);
    return [flag, value];
  }),
);
if (params.holders > params.accounts) throw new Error("--holders: at most --accounts");
const XCHAIN_BIN = join(import.meta.dirname, "..", "..", "packages", "node", "bin", "xchain.js");
const PROPAGATION_SPACING_MS = 100;
const POLL_MS = 50;
const RSKJ_BLOCKS_PER_SECOND = 16.5;
const commandLine = `node ${relative(process.cwd(), process.argv[1])} ${process.argv.slice(2).join(" ")}`.trimEnd();
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

/** A process's (or with `tid`, one thread's) user + system CPU seconds, from /proc (Linux); undefined elsewhere. */
function cpuSeconds(pid, tid) {
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, "utf8");
    // The fields after the command name (which may hold spaces), from field 3: utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** Both CPU figures of a process: all its threads, and its main thread. */
const cpuOf = (pid) => ({all: cpuSeconds(pid), main: cpuSeconds(pid, pid)});

/** The process's peak resident set (Linux), in MB. */
function peakRssMb(pid) {
  try {
    const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Subscribes to newHeads on `url`; `arrival(n)` resolves with the time block n's notification arrived. */
async function newHeads(url) {
  const ws = new WebSocket(url);
  await once(ws, "open");
  const arrivals = new Map();
  const waiters = new Map();
  let subscribed;
  const answered = new Promise((resolve, reject) => {
    subscribed = {resolve, reject};
  });
  ws.on("message", (data) => {
    const message = JSON.parse(data.toString());
    if (message.method === "eth_subscription") {
      const number = Number(message.params.result.number);
      const at = performance.now();
      arrivals.set(number, at);
      waiters.get(number)?.(at);
    } else if (message.id === 1) {
      if (message.error) subscribed.reject(new Error(`eth_subscribe: ${message.error.message}`));
      else subscribed.resolve(message.result);
    }
  });
  ws.send(JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"]}));
  await answered;
  return {
    arrival(number, timeoutMs) {
      if (arrivals.has(number)) return Promise.resolve(arrivals.get(number));
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiters.delete(number);
          resolve(undefined);
        }, timeoutMs);
        waiters.set(number, (at) => {
          clearTimeout(timer);
          waiters.delete(number);
          resolve(at);
        });
      });
    },
    close: () => ws.close(),
  };
}

const fmt = (n, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString("en-US", {minimumFractionDigits: digits, maximumFractionDigits: digits}) : "–";

/**
 * `xchain db import <file>` into `dataDir`, timed from spawn to exit; its CPU time and peak RSS are
 * sampled from /proc every 100 ms (the last sample before the exit: up to 100 ms short).
 */
async function dbImport(file, dataDir) {
  const start = performance.now();
  const child = spawn(
    process.execPath,
    [XCHAIN_BIN, "db", "import", file, "--network", "regtest", "--datadir", dataDir],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  let cpu = {all: 0, main: 0};
  let rss;
  const sampler = setInterval(() => {
    const sample = cpuOf(child.pid);
    if (sample.all !== undefined) cpu = sample;
    rss = peakRssMb(child.pid) ?? rss;
  }, 100);
  const [code] = await once(child, "exit");
  clearInterval(sampler);
  if (code !== 0) throw new Error(`xchain db import ${file} exited ${code}: ${stderr.slice(-2000)}`);
  return {seconds: (performance.now() - start) / 1000, cpu, peakRssMb: rss};
}

const cacheDir = resolve(opts.dir);
console.log(
  `secp256k1 backend: ${secp256k1Backend}; ${params.blocks} blocks, ${params.accounts} accounts (${params.holders} token holders), ` +
    `${params.txs} transactions a non-empty block on average; load average ${load()}`,
);
const chain = await mainnetChain(cacheDir, params, (n, total, seconds) =>
  console.log(`  built ${n}/${total} (${(n / seconds).toFixed(0)} blocks/s, load ${load()})`),
);
const head = chain.setup + chain.blocks;
console.log(
  `chain: ${chain.setup} setup blocks, then ${chain.blocks} blocks (${chain.emptyBlocks} empty), ${chain.txs} transactions ` +
    `(${chain.deployments} deployments, ${chain.freshAccounts} fresh accounts), ${fmt(chain.gas / 1e6, 1)} Mgas; ` +
    `${chain.built ? "built" : "cached, built"} in ${chain.buildSeconds.toFixed(0)} s (${chain.dir})`,
);

const workDir = mkdtempSync(join(tmpdir(), "xchain-bench-sync-"));
const nodes = [];
const agent = keepAliveAgent(2);
let heads;
try {
  // Local import, into what becomes A's data directory.
  const dataA = join(workDir, "A");
  mkdirSync(dataA);
  await dbImport(chain.setupFile, dataA);
  const loadBeforeImport = load();
  const local = await dbImport(chain.blocksFile, dataA);
  const localLoad = `${loadBeforeImport} → ${load()}`;
  console.log(
    `local import: ${fmt(chain.blocks / local.seconds, 1)} blocks/s (${local.seconds.toFixed(1)} s, CPU ${local.cpu.all.toFixed(1)} s, ` +
      `main thread ${local.cpu.main.toFixed(1)} s, peak RSS ${local.peakRssMb ?? "?"} MB; load ${localLoad})`,
  );

  const common = ["--network", "regtest", "--miner.enabled", "false", "--p2p.host", "127.0.0.1", "--p2p.port", "0"];
  common.push("--rpc.http.port", "0", "--rpc.ws.port", "0", "--log.level", "info");
  const profDir = process.env.SYNC_BENCH_CPU_PROF;
  const profile = (name) => (profDir ? ["--cpu-prof", "--cpu-prof-dir", join(resolve(profDir), name)] : []);
  const a = await startNode("A", ["--datadir", dataA, ...common], {nodeFlags: profile("A")});
  nodes.push(a);
  const aHead = Number(await call(agent, a.http, "eth_blockNumber"));
  if (aHead !== head) throw new Error(`A's head is ${aHead}, expected ${head}`);
  const bootnode = a.p2p.find((m) => m.startsWith("/ip4/127.0.0.1/")) ?? a.p2p[0];
  if (!bootnode) throw new Error("A logged no p2p address");

  // B: fresh, A its bootnode; its sync log lines are printed as they come.
  const bStartedAt = performance.now();
  /** B's "sync run ended" lines: where each run's import loop spent its time. */
  const runs = [];
  const b = await startNode("B", ["--datadir", join(workDir, "B"), ...common, "--p2p.bootnodes", bootnode], {
    nodeFlags: profile("B"),
    ...(process.env.SYNC_BENCH_B_BIN ? {bin: resolve(process.env.SYNC_BENCH_B_BIN)} : {}),
    onLog: (entry) => {
      if (entry.module !== "sync" && entry.level < 40) return;
      if (entry.msg === "sync run ended") runs.push(entry);
      if (entry.level < 40 && !["sync started", "synced", "sync run ended"].includes(entry.msg)) return;
      const timings =
        entry.importingMs === undefined ? "" : ` (importing ${entry.importingMs} ms, waiting ${entry.waitingMs} ms)`;
      console.log(`  B ${((performance.now() - bStartedAt) / 1000).toFixed(1).padStart(6)} s: ${entry.msg}${timings}`);
    },
  });
  nodes.push(b);
  let bHead = 0;
  let past;
  let lastReport = performance.now();
  const loadBeforeSync = load();
  while (bHead < head) {
    await sleep(POLL_MS);
    if (b.child.exitCode !== null) throw new Error(`B exited during the sync: ${b.stderr()}`);
    bHead = Number(await call(agent, b.http, "eth_blockNumber"));
    const now = performance.now();
    if (past === undefined && bHead >= chain.setup) past = {at: now, head: bHead, cpu: cpuOf(b.child.pid)};
    if (now - lastReport > 10_000) {
      lastReport = now;
      console.log(
        `  B ${((now - bStartedAt) / 1000).toFixed(1).padStart(6)} s: block ${bHead} of ${head}, load ${load()}`,
      );
    }
  }
  const done = {at: performance.now(), cpu: cpuOf(b.child.pid)};
  const syncLoad = `${loadBeforeSync} → ${load()}`;
  // The blocks B imported between the two polls: those past the setup, less what the first poll saw beyond it.
  const syncBlocks = head - past.head;
  const syncSeconds = (done.at - past.at) / 1000;
  const syncCpu = {all: done.cpu.all - past.cpu.all, main: done.cpu.main - past.cpu.main};
  const bSyncRss = peakRssMb(b.child.pid);

  // Propagation: a block mined on A until B's newHeads notification for it.
  heads = await newHeads(b.ws);
  const propagation = [];
  const mineMs = [];
  let missed = 0;
  for (let i = 0; i < params.propagation; i++) {
    const t0 = performance.now();
    await call(agent, a.http, "evm_mine");
    const mined = performance.now();
    mineMs.push(mined - t0);
    const number = Number(await call(agent, a.http, "eth_blockNumber"));
    const arrived = await heads.arrival(number, 5_000);
    if (arrived === undefined) missed++;
    else propagation.push(arrived - mined);
    await sleep(PROPAGATION_SPACING_MS);
  }
  propagation.sort((x, y) => x - y);
  mineMs.sort((x, y) => x - y);

  const localRate = chain.blocks / local.seconds;
  const syncRate = syncBlocks / syncSeconds;
  // Gas and transactions per block are the chain's averages (the sync's stretch starts a few blocks in).
  const gasPerBlock = chain.gas / chain.blocks;
  const txsPerBlock = chain.txs / chain.blocks;
  const row = (rate, cpu, blocks) => [
    `${fmt(rate, 1)} blocks/s`,
    `${fmt(rate * txsPerBlock)} tx/s`,
    `${fmt((rate * gasPerBlock) / 1e6, 1)} Mgas/s`,
    `CPU ${fmt((cpu.all / blocks) * 1e3, 2)} ms/block, main thread ${fmt((cpu.main / blocks) * 1e3, 2)}`,
  ];
  const met = (ok) => (ok ? "met" : "NOT MET");
  const rows = [
    ["local import (xchain db import)", ...row(localRate, local.cpu, chain.blocks)],
    ["sync A → B over loopback", ...row(syncRate, syncCpu, syncBlocks)],
    [
      "sync / local import",
      `${(syncRate / localRate).toFixed(2)}`,
      "",
      "",
      `target ≥ 0.9: ${met(syncRate / localRate >= 0.9)}`,
    ],
    [
      "sync Mgas/s",
      `${fmt((syncRate * gasPerBlock) / 1e6, 1)}`,
      "",
      "",
      `target ≥ 60: ${met((syncRate * gasPerBlock) / 1e6 >= 60)}`,
    ],
    [
      "sync / rskj's reported 16–17 blocks/s",
      `${(syncRate / RSKJ_BLOCKS_PER_SECOND).toFixed(1)}×`,
      "",
      "",
      "(mainnet's blocks, not these)",
    ],
    [
      `propagation A → B head, ${propagation.length} blocks`,
      `p50 ${fmt(quantile(propagation, 0.5), 1)} ms`,
      `p99 ${fmt(quantile(propagation, 0.99), 1)} ms`,
      "",
      `target p50 < 100 ms: ${met(quantile(propagation, 0.5) < 100)}`,
    ],
  ];
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c].length)));
  console.log(`\n${commandLine}`);
  for (const r of rows) {
    const cells = r.slice(0, 4).map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])));
    console.log(`  ${cells.join("  ")}  ${r[4]}`.trimEnd());
  }
  console.log(
    `  sync: ${syncBlocks} blocks in ${syncSeconds.toFixed(1)} s past the setup blocks (B ready ${((b.readyAt - bStartedAt) / 1000).toFixed(1)} s ` +
      `after spawn, past the setup ${((past.at - b.readyAt) / 1000).toFixed(1)} s after ready); load ${syncLoad}`,
  );
  const sum = (field) => runs.reduce((total, r) => total + (r[field] ?? 0), 0) / 1000;
  console.log(
    `  B's import loop over its ${runs.length} sync run(s), setup blocks included: ${sum("importingMs").toFixed(1)} s in the chain's ` +
      `import, ${sum("waitingMs").toFixed(1)} s waiting for a body or its senders`,
  );
  if (process.env.SYNC_BENCH_B_BIN) console.log(`  B ran ${resolve(process.env.SYNC_BENCH_B_BIN)}`);
  console.log(
    `  local import: ${chain.blocks} blocks in ${local.seconds.toFixed(1)} s, process start included; load ${localLoad}`,
  );
  console.log(
    `  peak RSS: local import ${local.peakRssMb ?? "?"} MB, B after the sync ${bSyncRss ?? "?"} MB;` +
      ` evm_mine round trip on A p50 ${fmt(quantile(mineMs, 0.5), 1)} ms${missed ? `; ${missed} blocks never reached B within 5 s` : ""}`,
  );
} finally {
  heads?.close();
  agent.destroy();
  for (const node of nodes.reverse()) await stopNode(node);
  rmSync(workDir, {recursive: true, force: true});
}
