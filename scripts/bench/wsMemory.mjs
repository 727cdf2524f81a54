// Memory per idle WebSocket connection holding two subscriptions (newHeads and logs): a regtest
// node, N connections opened to it each with both subscriptions, and the node's RSS (/proc) and
// used V8 heap (its metrics endpoint) before and after, divided by N. Linux only; needs a build.
//
//   node scripts/bench/wsMemory.mjs [connections=1000]
import {mkdtempSync, readFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import WebSocket from "ws";
import {startNode, stopNode} from "./nodeProcess.mjs";

const N = Number(process.argv[2] ?? 1000);
const BATCH = 50;
const SETTLE_MS = 3_000;

const dataDir = mkdtempSync(join(tmpdir(), "xchain-bench-wsmem-"));
let metricsUrl;
const node = await startNode(
  "ws memory",
  [
    "--datadir",
    dataDir,
    "--p2p.enabled",
    "false",
    "--rpc.http.port",
    "0",
    "--rpc.ws.port",
    "0",
    "--metrics.enabled",
    "--metrics.port",
    "0",
    "--log.level",
    "info",
  ],
  {
    // The ready line also carries the metrics URL.
    onLog: (entry) => {
      if (typeof entry.metrics === "string") metricsUrl = entry.metrics;
    },
  },
);

/** The node's resident set (VmRSS) and used V8 heap, in bytes. */
async function memory() {
  const status = readFileSync(`/proc/${node.child.pid}/status`, "utf8");
  const rss = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)[1]) * 1024;
  const text = await (await fetch(metricsUrl)).text();
  const heap = Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)[1]);
  return {rss, heap};
}

/** Opens one connection with a newHeads and a logs subscription; resolves once both are confirmed. */
function subscribe() {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(node.ws);
    let confirmed = 0;
    socket.on("error", reject);
    socket.on("open", () => {
      socket.send(JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"]}));
      socket.send(JSON.stringify({jsonrpc: "2.0", id: 2, method: "eth_subscribe", params: ["logs", {}]}));
    });
    socket.on("message", (data) => {
      const message = JSON.parse(String(data));
      if (message.error) reject(new Error(JSON.stringify(message.error)));
      if (message.id !== undefined && ++confirmed === 2) resolve(socket);
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const sockets = [];
try {
  // A few connections first, so that code paths run once are not counted.
  for (const s of await Promise.all(Array.from({length: 10}, subscribe))) s.close();
  await sleep(SETTLE_MS);
  const before = await memory();
  while (sockets.length < N) {
    sockets.push(...(await Promise.all(Array.from({length: Math.min(BATCH, N - sockets.length)}, subscribe))));
  }
  await sleep(SETTLE_MS);
  const after = await memory();
  const perConnection = (key) => Math.round((after[key] - before[key]) / N);
  console.log(`${N} idle WebSocket connections, newHeads + logs each`);
  console.log(
    `RSS   ${(before.rss / 2 ** 20).toFixed(1)} → ${(after.rss / 2 ** 20).toFixed(1)} MiB: ${perConnection("rss")} bytes per connection`,
  );
  console.log(
    `heap  ${(before.heap / 2 ** 20).toFixed(1)} → ${(after.heap / 2 ** 20).toFixed(1)} MiB: ${perConnection("heap")} bytes per connection`,
  );
} finally {
  for (const s of sockets) s.terminate();
  await stopNode(node);
}
