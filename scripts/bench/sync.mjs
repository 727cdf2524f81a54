// Sync over loopback: node A holds a chain of value-transfer blocks (chainFixture.mjs);
// a fresh node B, given A as its bootnode, syncs it. Prints B's sync rate (blocks/s, tx/s, from B's
// "JSON-RPC ready" line to the poll of eth_blockNumber, every 50 ms, that sees A's head) next to
// the local import rate of the same chain measured in the same run (a fresh child process imports
// the chain into a fresh LevelDB store through `Chain.open` + `importBlock`; that store is A's
// <datadir>/db, so the measurement also builds A's data directory), and the time a block mined on
// A (evm_mine, which returns once A has imported it) takes to reach B's head (B's newHeads
// notification over WebSocket), 50 blocks ~100 ms apart. Both nodes are the built CLI as child
// processes on loopback. Needs a build (`npm run build`).
//
//   node scripts/bench/sync.mjs [blocks=5000] [txsPerBlock=10]
//
// SYNC_BENCH_CPU_PROF=<dir> writes a CPU profile of B (node --cpu-prof) into <dir>.
import {once} from "node:events";
import {mkdirSync, mkdtempSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join, relative} from "node:path";
import {setTimeout as sleep} from "node:timers/promises";
import {secp256k1Backend} from "@xchain/utils";
import WebSocket from "ws";
import {buildChain, measureImport, txCountOf, writeChain} from "./chainFixture.mjs";
import {startNode, stopNode} from "./nodeProcess.mjs";
import {call, keepAliveAgent} from "./rpc/loadGenerator.mjs";

const blockCount = Number(process.argv[2] ?? 5000);
const txsPerBlock = Number(process.argv[3] ?? 10);
const PROPAGATION_BLOCKS = 50;
const PROPAGATION_SPACING_MS = 100;
const POLL_MS = 50;
const commandLine = `node ${relative(process.cwd(), process.argv[1])} ${blockCount} ${txsPerBlock}`;

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

console.log(`secp256k1 backend: ${secp256k1Backend}; ${blockCount} blocks x ${txsPerBlock} transactions`);
const workDir = mkdtempSync(join(tmpdir(), "xchain-bench-sync-"));
const nodes = [];
const agent = keepAliveAgent(2);
let heads;
try {
  const buildStart = Date.now();
  const {encoded, setup} = await buildChain({kind: "transfer", blockCount, txsPerBlock});
  const head = encoded.length;
  const totalTxs = encoded.reduce((sum, bytes) => sum + txCountOf(bytes), 0);
  console.log(`built ${head} blocks (${totalTxs} transactions) in ${((Date.now() - buildStart) / 1000).toFixed(1)} s`);
  const file = join(workDir, "chain.txt");
  writeChain(file, encoded);

  // Local import, into what becomes A's data directory (node.ts: the store is <datadir>/db).
  const dataA = join(workDir, "A");
  mkdirSync(dataA);
  const local = measureImport(file, setup, {dbDir: join(dataA, "db")});
  console.log(
    `local import: ${fmt(local.blocks / local.seconds, 1)} blocks/s, ${fmt(local.txs / local.seconds)} tx/s (${local.seconds.toFixed(1)} s, peak RSS ${local.peakRssMb} MB)`,
  );

  const common = ["--network", "regtest", "--miner.enabled", "false", "--p2p.host", "127.0.0.1", "--p2p.port", "0"];
  common.push("--rpc.http.port", "0", "--rpc.ws.port", "0", "--log.level", "info");
  const a = await startNode("A", ["--datadir", dataA, ...common]);
  nodes.push(a);
  const aHead = Number(await call(agent, a.http, "eth_blockNumber"));
  if (aHead !== head) throw new Error(`A's head is ${aHead}, expected ${head}`);
  const bootnode = a.p2p.find((m) => m.startsWith("/ip4/127.0.0.1/")) ?? a.p2p[0];
  if (!bootnode) throw new Error("A logged no p2p address");

  // B: fresh, A its bootnode; its sync log lines are printed as they come.
  const bLog = {};
  const profDir = process.env.SYNC_BENCH_CPU_PROF;
  const bStartedAt = performance.now();
  const b = await startNode("B", ["--datadir", join(workDir, "B"), ...common, "--p2p.bootnodes", bootnode], {
    nodeFlags: profDir ? ["--cpu-prof", "--cpu-prof-dir", profDir] : [],
    onLog: (entry) => {
      const at = performance.now();
      if (entry.module !== "sync" && entry.level < 40) return;
      if (entry.msg === "sync started") bLog.syncStarted ??= at;
      if (entry.msg === "synced") bLog.synced ??= at;
      console.log(`  B ${((at - bStartedAt) / 1000).toFixed(1).padStart(6)} s: ${entry.msg}`);
    },
  });
  nodes.push(b);
  let bHead = 0;
  while (bHead < head) {
    await sleep(POLL_MS);
    if (b.child.exitCode !== null) throw new Error(`B exited during the sync: ${b.stderr()}`);
    bHead = Number(await call(agent, b.http, "eth_blockNumber"));
  }
  const syncSeconds = (performance.now() - b.readyAt) / 1000;
  const bSyncRss = peakRssMb(b.child.pid);

  // Propagation: a block mined on A until B's newHeads notification for it.
  heads = await newHeads(b.ws);
  const propagation = [];
  const mineMs = [];
  let missed = 0;
  for (let i = 0; i < PROPAGATION_BLOCKS; i++) {
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

  const localBlocks = local.blocks / local.seconds;
  const localTxs = local.txs / local.seconds;
  const syncBlocks = head / syncSeconds;
  const syncTxs = totalTxs / syncSeconds;
  const rows = [
    ["local import (child process, fresh LevelDB)", `${fmt(localBlocks, 1)} blocks/s`, `${fmt(localTxs)} tx/s`],
    ["sync A → B over loopback", `${fmt(syncBlocks, 1)} blocks/s`, `${fmt(syncTxs)} tx/s`],
    ["sync / local import (target ≥ 0.8)", `${(syncBlocks / localBlocks).toFixed(2)}`, ""],
    [
      `propagation A → B head, ${propagation.length} blocks (target p50 < 100 ms)`,
      `p50 ${fmt(quantile(propagation, 0.5), 1)} ms`,
      `p99 ${fmt(quantile(propagation, 0.99), 1)} ms`,
    ],
  ];
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  console.log(`\n${commandLine}`);
  for (const [what, x, y] of rows) console.log(`  ${what.padEnd(w0)}  ${x.padStart(w1)}  ${y}`.trimEnd());
  console.log(
    `  sync: ${head} blocks, ${totalTxs} transactions in ${syncSeconds.toFixed(1)} s from B's ready line` +
      ` (B ready ${((b.readyAt - bStartedAt) / 1000).toFixed(1)} s after spawn` +
      `${bLog.syncStarted === undefined ? "" : `, "sync started" ${((bLog.syncStarted - b.readyAt) / 1000).toFixed(1)} s after ready`}` +
      `); local import: ${local.blocks} blocks in ${local.seconds.toFixed(1)} s`,
  );
  console.log(
    `  peak RSS: local import ${local.peakRssMb} MB, B after the sync ${bSyncRss ?? "?"} MB;` +
      ` evm_mine round trip on A p50 ${fmt(quantile(mineMs, 0.5), 1)} ms${missed ? `; ${missed} blocks never reached B within 5 s` : ""}`,
  );
} finally {
  heads?.close();
  agent.destroy();
  for (const node of nodes.reverse()) await stopNode(node);
  rmSync(workDir, {recursive: true, force: true});
}
