// Memory soak: a fresh regtest node (the built CLI, free ports, metrics on) under a modest mixed
// load for N minutes (soak/loads.mjs: transactions sent continuously, eth_call with distinct
// inputs, eth_getLogs over recent ranges, eth_getBalance of 20,000 accounts, full blocks,
// WebSocket newHeads/logs subscriptions, filters polled), sampling every few seconds the node's
// RSS (/proc), V8 heap (main thread and call workers) and external memory, its cache gauges (xchain_cache_bytes, metrics
// endpoint), the database's size and the head. Prints a table of the samples, then RSS, heap and
// external memory at the start and over the last third (mean and slope per hour: the plateau),
// the disk per block, each cache against its budget, and the requests of each load. Linux only;
// needs a build (`npx tsc -b`).
//
//   node scripts/bench/soak.mjs [--minutes 15] [--sample-seconds 10] [--tx-pace-ms 200]
//     [--read-pace-ms 20] [--ws 4] [--heap-snapshots DIR] [--keep] [-- xchain start flags...]
//
// --heap-snapshots DIR: the node writes a V8 heap snapshot into DIR (its --heapsnapshot-signal,
// SIGUSR2) after a third of the run and at the end; compare them with soak/heapDiff.mjs.
// docs/reliability.md §11 has the figures measured and the command the 60-minute proof uses.
import {mkdirSync, mkdtempSync, readdirSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join, resolve} from "node:path";
import {setTimeout as sleep} from "node:timers/promises";
import {parseArgs} from "node:util";
import {freePortFlags} from "@xchain/test-utils";
import {keccak256, utf8ToBytes} from "@xchain/utils";
import {startNode, stopNode} from "./nodeProcess.mjs";
import {prepare, soakLoads} from "./soak/loads.mjs";
import {formatSample, sample, summarize} from "./soak/sampler.mjs";

const separator = process.argv.indexOf("--");
const {values: opts} = parseArgs({
  args: process.argv.slice(2, separator === -1 ? undefined : separator),
  options: {
    minutes: {type: "string", default: "15"},
    "sample-seconds": {type: "string", default: "10"},
    "tx-pace-ms": {type: "string", default: "200"},
    "read-pace-ms": {type: "string", default: "20"},
    ws: {type: "string", default: "4"},
    "heap-snapshots": {type: "string"},
    keep: {type: "boolean", default: false},
  },
});
const extraFlags = separator === -1 ? [] : process.argv.slice(separator + 1);
const minutes = Number(opts.minutes);
const sampleMs = Number(opts["sample-seconds"]) * 1000;
const COW = keccak256(utf8ToBytes("cow"));

const dataDir = mkdtempSync(join(tmpdir(), "xchain-soak-"));
const snapshotDir = opts["heap-snapshots"] && resolve(opts["heap-snapshots"]);
const nodeFlags = [];
if (snapshotDir) {
  mkdirSync(snapshotDir, {recursive: true});
  nodeFlags.push("--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${snapshotDir}`);
}
const flags = [
  ...freePortFlags(dataDir),
  "--p2p.enabled",
  "false",
  "--metrics.enabled",
  "true",
  "--metrics.port",
  "0",
  "--log.level",
  "info",
  ...extraFlags,
];
console.log(`node ${nodeFlags.join(" ")} xchain start ${flags.join(" ")}`);
let metricsUrl;
const node = await startNode("soak", flags, {
  nodeFlags,
  onLog: (entry) => {
    if (typeof entry.metrics === "string") metricsUrl = entry.metrics;
  },
});

/** Asks the node for a heap snapshot and waits until its file is complete (the node writes it synchronously). */
async function heapSnapshot(label) {
  const before = new Set(readdirSync(snapshotDir));
  node.child.kill("SIGUSR2");
  for (let i = 0; i < 600; i++) {
    await sleep(1000);
    const added = readdirSync(snapshotDir).filter((f) => !before.has(f) && f.endsWith(".heapsnapshot"));
    // The file appears when writing starts; one more sample answered means the write is over.
    if (added.length > 0) {
      await fetch(metricsUrl)
        .then((r) => r.text())
        .catch(() => fetch(metricsUrl).then((r) => r.text()));
      console.log(`heap snapshot (${label}): ${join(snapshotDir, added[0])}`);
      return;
    }
  }
}

try {
  process.stderr.write(`preparing: contracts and senders on ${node.http}\n`);
  const chain = await prepare(node.http, COW, 2);
  const startedAt = Date.now();
  const endAt = startedAt + minutes * 60_000;
  const loads = soakLoads(node, chain, {
    endAt,
    txPaceMs: Number(opts["tx-pace-ms"]),
    readPaceMs: Number(opts["read-pace-ms"]),
    wsConnections: Number(opts.ws),
  });
  const running = Promise.all(loads.map((l) => l.run()));
  const where = {metricsUrl, startedAt};
  const samples = [];
  let snapshotTaken = false;
  while (Date.now() < endAt) {
    samples.push(await sample(node, where));
    console.log(formatSample(samples.at(-1), samples.length === 1));
    if (snapshotDir && !snapshotTaken && Date.now() - startedAt > (endAt - startedAt) / 3) {
      snapshotTaken = true;
      await heapSnapshot("after a third");
    }
    await sleep(Math.min(sampleMs, Math.max(0, endAt - Date.now())));
  }
  await running;
  samples.push(await sample(node, where));
  console.log(formatSample(samples.at(-1), false));
  if (snapshotDir) await heapSnapshot("end");
  console.log("");
  for (const line of summarize(samples)) console.log(line);
  console.log("load: requests answered, failed, notifications");
  for (const {stats} of loads) {
    console.log(
      `  ${stats.name.padEnd(36)} ${String(stats.requests).padStart(8)} ${String(stats.errors).padStart(6)} ${String(
        stats.notifications,
      ).padStart(8)}${stats.lastError ? `  last error: ${stats.lastError.slice(0, 120)}` : ""}`,
    );
  }
} finally {
  await stopNode(node);
  if (opts.keep) console.log(`data directory kept: ${dataDir}`);
  else rmSync(dataDir, {recursive: true, force: true});
}
