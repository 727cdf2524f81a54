// Start-up time of the node (docs/performance.md "Start-up"): from process start to the RPC
// listeners bound (the `startupMs` of the "JSON-RPC ready" log line), and the wall time from the
// spawn to that line; `restarts` starts, with p2p on (on free ports) unless `p2p=off`. With
// `datadir=reused` (the default) every start reopens one regtest data directory holding two blocks;
// with `datadir=fresh` each start gets a new empty directory (the genesis is built and stored).
// `bin=<path>` runs another checkout's CLI (before/after comparisons). On Linux it also prints the
// CPU time the node process had used (all its threads, /proc/<pid>/stat) when the ready line came:
// on a loaded machine that figure moves far less than the wall times.
// Build first: npm run build
// Run: node scripts/bench/startup.mjs [restarts=5] [p2p=on|off] [datadir=reused|fresh] [bin=<xchain.js>]
import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {localNodeArgs, startNode, stopNode} from "./nodeProcess.mjs";

const settings = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((arg) => arg.includes("="))
    .map((arg) => [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]),
);
const restarts = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 5);
const p2p = (settings.p2p ?? "on") !== "off";
const fresh = (settings.datadir ?? "reused") === "fresh";
const bin = settings.bin;
const root = mkdtempSync(join(tmpdir(), "xchain-bench-startup-"));

// localNodeArgs turns p2p off; later flags win, so p2p comes back on free loopback ports.
const argsFor = (dataDir) => [
  ...localNodeArgs(dataDir),
  "--miner.blockTimeMs",
  "0",
  ...(p2p ? ["--p2p.enabled", "true", "--p2p.host", "127.0.0.1", "--p2p.port", "0"] : []),
];

/** User + system CPU time of process `pid` in ms (Linux: clock ticks of 10 ms); undefined elsewhere. */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

async function start(dataDir) {
  let ms;
  let build;
  const spawnedAt = performance.now();
  const node = await startNode("startup", argsFor(dataDir), {
    ...(bin ? {bin} : {}),
    onLog: (entry) => {
      if (typeof entry.startupMs === "number") ({startupMs: ms, build} = entry);
    },
  });
  // Read as the ready line resolves the start (the same chunk of output), before the next request.
  return {node, ms, build, cpuMs: cpuMsOf(node.child.pid), wallMs: Math.round(node.readyAt - spawnedAt)};
}

const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];

try {
  const reused = join(root, "reused");
  if (!fresh) {
    const first = await start(reused);
    for (let i = 0; i < 2; i++) {
      await fetch(first.node.http, {
        method: "POST",
        headers: {"content-type": "application/json"},
        body: JSON.stringify({jsonrpc: "2.0", id: 1, method: "evm_mine", params: []}),
      });
    }
    await stopNode(first.node);
  }
  const figures = [];
  const walls = [];
  const cpus = [];
  const builds = new Set();
  for (let i = 0; i < restarts; i++) {
    const {node, ms, build, cpuMs, wallMs} = await start(fresh ? join(root, `fresh-${i}`) : reused);
    figures.push(ms);
    builds.add(build ?? "modules");
    walls.push(wallMs);
    if (cpuMs !== undefined) cpus.push(cpuMs);
    await stopNode(node);
  }
  console.log(
    `start-up (p2p ${p2p ? "on" : "off"}, ${fresh ? "a fresh" : "a reused"} data directory, ` +
      `${[...builds].join(" and ")}), ${restarts} starts: ` +
      `ready ${[...figures].sort((a, b) => a - b).join(", ")} ms after start (median ${median(figures)} ms; ` +
      `target ≤ 500 ms); spawn to ready line median ${median(walls)} ms` +
      (cpus.length > 0 ? `; CPU time at ready median ${median(cpus)} ms (fastest ${Math.min(...cpus)} ms)` : ""),
  );
} finally {
  rmSync(root, {recursive: true, force: true});
}
