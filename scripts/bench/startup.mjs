// Start-up time of the node (docs/performance.md "Start-up"): from process start to the RPC
// listeners bound (the `startupMs` of the "JSON-RPC ready" log line), on an existing regtest data
// directory with two blocks, restarted `restarts` times; with p2p on (on free ports) unless `p2p=off`.
// Build first: npm run build    Run: node scripts/bench/startup.mjs [restarts=5] [p2p=on|off]
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {localNodeArgs, startNode, stopNode} from "./nodeProcess.mjs";

const restarts = Number(process.argv[2] ?? 5);
const p2p = (process.argv[3] ?? "p2p=on") !== "p2p=off";
const dataDir = mkdtempSync(join(tmpdir(), "xchain-bench-startup-"));
// localNodeArgs turns p2p off; later flags win, so p2p comes back on free loopback ports.
const args = [
  ...localNodeArgs(dataDir),
  "--miner.blockTimeMs",
  "0",
  ...(p2p ? ["--p2p.enabled", "true", "--p2p.host", "127.0.0.1", "--p2p.port", "0"] : []),
];

async function startupMs() {
  let ms;
  const node = await startNode("startup", args, {
    onLog: (entry) => {
      if (typeof entry.startupMs === "number") ms = entry.startupMs;
    },
  });
  return {node, ms};
}

try {
  const first = await startupMs();
  for (let i = 0; i < 2; i++) {
    await fetch(first.node.http, {
      method: "POST",
      headers: {"content-type": "application/json"},
      body: JSON.stringify({jsonrpc: "2.0", id: 1, method: "evm_mine", params: []}),
    });
  }
  await stopNode(first.node);
  const figures = [];
  for (let i = 0; i < restarts; i++) {
    const {node, ms} = await startupMs();
    figures.push(ms);
    await stopNode(node);
  }
  figures.sort((a, b) => a - b);
  console.log(
    `start-up (p2p ${p2p ? "on" : "off"}), ${restarts} restarts: ${figures.join(", ")} ms ` +
      `(median ${figures[figures.length >> 1]} ms; target < 1 s)`,
  );
} finally {
  rmSync(dataDir, {recursive: true, force: true});
}
