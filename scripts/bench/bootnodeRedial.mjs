// How long a node takes to redial a restarted bootnode (docs/p2p.md, "Bootnodes"): node A (the
// bootnode, not mining) and node B (A as its only bootnode) on loopback; A is stopped (SIGTERM) and
// started again on the same data directory and p2p port, `rounds` times. Prints, per round, how long
// A was down (its stop asked to its new "p2p listening" line) and the redial time: from A's new
// "p2p listening" line (logged before "JSON-RPC ready") to B's "peer … connected" line for A (B
// redials A on its own; nothing pokes it). `bin` runs another checkout's CLI (the figure before a
// change). Needs a build.
//
//   node scripts/bench/bootnodeRedial.mjs [rounds=5] [bin]
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {startNode, stopNode} from "./nodeProcess.mjs";

const rounds = Number(process.argv[2] ?? 5);
const bin = process.argv[3];
const options = bin ? {bin} : {};

const quiet = (dataDir) => [
  ...["--datadir", dataDir, "--miner.enabled", "false", "--log.level", "info"],
  ...["--rpc.http.port", "0", "--rpc.ws.port", "0", "--p2p.host", "127.0.0.1"],
];

const dirA = mkdtempSync(join(tmpdir(), "xchain-redial-a-"));
const dirB = mkdtempSync(join(tmpdir(), "xchain-redial-b-"));
/** When A last logged "p2p listening" (performance.now()). */
let listeningAt = 0;
const startA = (port) =>
  startNode("A", [...quiet(dirA), "--p2p.port", port], {
    ...options,
    onLog: (entry) => {
      if (entry.msg === "p2p listening") listeningAt = performance.now();
    },
  });
let a = await startA("0");
const address = a.p2p[0];
const port = address.split("/")[4];
const idA = address.split("/p2p/")[1];
/** When B logged A as connected (performance.now()), the latest first. */
const connectedAt = [];
const b = await startNode("B", [...quiet(dirB), "--p2p.port", "0", "--p2p.bootnodes", address], {
  ...options,
  onLog: (entry) => {
    if (entry.peer === idA && / connected /.test(String(entry.msg))) connectedAt.unshift(performance.now());
  },
});

/** Waits until B has logged A connected after `since`; the time it did. */
async function connectedAfter(since, timeoutMs = 120_000) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const at = connectedAt[0];
    if (at !== undefined && at > since) return at;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`B did not reconnect to A within ${timeoutMs} ms`);
}

const figures = [];
try {
  await connectedAfter(0);
  for (let round = 1; round <= rounds; round++) {
    const stopAsked = performance.now();
    await stopNode(a);
    const stoppedMs = Math.round(performance.now() - stopAsked);
    a = await startA(port);
    const reconnected = await connectedAfter(listeningAt);
    const downMs = Math.round(listeningAt - stopAsked);
    const redialMs = Math.round(reconnected - listeningAt);
    figures.push(redialMs);
    console.log(
      `round ${round}: A down ${downMs} ms (stopped in ${stoppedMs} ms), redialled ${redialMs} ms after it listened`,
    );
    // Let B settle on the connection before the next stop.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
} finally {
  await Promise.all([stopNode(a), stopNode(b)]);
  rmSync(dirA, {recursive: true, force: true});
  rmSync(dirB, {recursive: true, force: true});
}
const sorted = [...figures].sort((x, y) => x - y);
console.log(
  `redial after a bootnode restart (${rounds} rounds${bin ? `, ${bin}` : ""}): median ${sorted[Math.floor(sorted.length / 2)]} ms, ` +
    `min ${sorted[0]} ms, max ${sorted.at(-1)} ms`,
);
