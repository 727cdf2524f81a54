// The dev loop against anvil (docs/performance.md §21): a fresh regtest node (the built CLI, its
// defaults, free ports) and anvil 1.7.1 in automine mode side by side in one run, every request
// sequential over one keep-alive HTTP connection:
// - `evm_mine`, answer to answer;
// - a transfer sent with `eth_sendTransaction` from the first dev account and mined at once,
//   answer to answer;
// - the fixture loop of a test suite: `evm_snapshot`, 20 transfers each followed by its
//   `eth_getTransactionReceipt` (asked again at once while it is null), `evm_revert`; per loop.
// Each measure runs in rounds alternated between the servers, so that the machine's drift falls on
// all of them. Prints median and p95 of each, xchain's ratio to anvil, and the CPU time the server's
// process tree spent per operation (steadier than latency on a shared machine; the loop's includes
// the receipts anvil was asked for again).
//
//   node scripts/bench/devLoop.mjs [rounds=3] [--before=<checkout>] [--cpu-prof=<dir>] [-- <xchain start flags>]
//
// --before: another checkout's built CLI as a third server (before/after in one run).
// --cpu-prof: the xchain node runs with `node --cpu-prof` and writes its profile into <dir> on exit.
import {mkdtempSync, rmSync} from "node:fs";
import {loadavg, tmpdir} from "node:os";
import {join} from "node:path";
import {localNodeArgs, startNode, stopNode} from "./nodeProcess.mjs";
import {cpuMicros} from "./rpc/cpu.mjs";
import {call, keepAliveAgent} from "./rpc/loadGenerator.mjs";
import {startAnvil} from "./rpc/servers.mjs";

const separator = process.argv.indexOf("--");
const ownArgs = separator === -1 ? process.argv.slice(2) : process.argv.slice(2, separator);
const xchainFlags = separator === -1 ? [] : process.argv.slice(separator + 1);
const option = (name) => ownArgs.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const rounds = Number(ownArgs.find((a) => !a.startsWith("--")) ?? 3);
const before = option("before");
const profileDir = option("cpu-prof");

const MINES_PER_ROUND = 200;
const SENDS_PER_ROUND = 200;
const LOOPS_PER_ROUND = 10;
const FIXTURE_TRANSFERS = 20;
const SINK = "0x00000000000000000000000000000000000dec0d";

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A server under measure: its URL and process, one keep-alive connection, the dev account it sends from. */
async function client(name, url, pid, stop) {
  const agent = keepAliveAgent(1);
  const [from] = await call(agent, url, "eth_accounts");
  if (!from) throw new Error(`${name} has no dev account`);
  const figures = {mine: [], send: [], loop: []};
  const cpu = {mine: 0, send: 0, loop: 0};
  return {name, url, pid, agent, from, stop, figures, cpu, receiptRetries: 0, lost: 0};
}

/** A regtest node from the CLI at `bin` (this checkout's by default), its data directory removed on stop. */
async function xchain(name, bin) {
  const dataDir = mkdtempSync(join(tmpdir(), "xchain-bench-devloop-"));
  const nodeFlags = profileDir && !bin ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
  const node = await startNode(name, [...localNodeArgs(dataDir), ...xchainFlags], {
    nodeFlags,
    ...(bin ? {bin} : {}),
  });
  return client(name, node.http, node.child.pid, async () => {
    await stopNode(node);
    rmSync(dataDir, {recursive: true, force: true});
  });
}

async function anvil() {
  const server = await startAnvil({automine: true});
  return client("anvil", server.url, server.pid, server.stop);
}

// Every transfer sends another value, so that no two have the same hash.
let transfers = 0;
const send = (c) =>
  call(c.agent, c.url, "eth_sendTransaction", [{from: c.from, to: SINK, value: `0x${(++transfers).toString(16)}`}]);

// Receipts asked for in vain before checking that the server still knows the transaction.
const LOST_CHECK_EVERY = 100;

/**
 * The receipt of `hash`, asked again at once while the server has none (for up to 30 s). anvil 1.7.1
 * sometimes loses a transfer sent just after an `evm_revert` (neither pending nor mined, unknown by
 * hash): it is sent again, and counted.
 */
async function receipt(c, hash) {
  const deadline = performance.now() + 30_000;
  for (let nulls = 1; ; nulls++) {
    if (performance.now() > deadline) throw new Error(`${c.name}: no receipt for ${hash} after 30 s`);
    const r = await call(c.agent, c.url, "eth_getTransactionReceipt", [hash]);
    if (r) {
      if (r.status !== "0x1") throw new Error(`${c.name}: transfer ${hash} failed`);
      return r;
    }
    c.receiptRetries++;
    if (nulls % LOST_CHECK_EVERY === 0 && !(await call(c.agent, c.url, "eth_getTransactionByHash", [hash]))) {
      c.lost++;
      hash = await send(c);
    }
  }
}

/** Runs `action` `count` times, each timed; the last answer. */
async function timed(samples, count, action) {
  let answer;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    answer = await action();
    samples.push(performance.now() - started);
  }
  return answer;
}

const measures = {
  mine: (c) => timed(c.figures.mine, MINES_PER_ROUND, () => call(c.agent, c.url, "evm_mine")),
  // anvil answers before it mines, so transfers can pile up in its pool: the last one's receipt (not
  // timed) leaves nothing pending for the next measure.
  send: async (c) => receipt(c, await timed(c.figures.send, SENDS_PER_ROUND, () => send(c))),
  loop: (c) =>
    timed(c.figures.loop, LOOPS_PER_ROUND, async () => {
      const id = await call(c.agent, c.url, "evm_snapshot");
      for (let i = 0; i < FIXTURE_TRANSFERS; i++) await receipt(c, await send(c));
      if ((await call(c.agent, c.url, "evm_revert", [id])) !== true) throw new Error(`${c.name}: evm_revert failed`);
    }),
};

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {median: percentile(sorted, 50), p95: percentile(sorted, 95)};
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const servers = [];
try {
  servers.push(await xchain("xchain"));
  if (before) servers.push(await xchain("before", join(before, "packages", "node", "bin", "xchain.js")));
  servers.push(await anvil());
  // Warm-up: the first requests of each kind compile code paths on both sides.
  for (const c of servers) {
    process.stderr.write(`warm-up: ${c.name}\n`);
    for (let i = 0; i < 20; i++) await call(c.agent, c.url, "evm_mine");
    for (let i = 0; i < 20; i++) await receipt(c, await send(c));
    c.receiptRetries = 0;
  }
  console.log(`load average before: ${load()}`);
  for (const kind of Object.keys(measures)) {
    for (let round = 0; round < rounds; round++) {
      for (const c of round % 2 === 0 ? servers : [...servers].reverse()) {
        process.stderr.write(`${kind}, round ${round + 1}: ${c.name}\n`);
        const cpuBefore = cpuMicros(c.pid);
        await measures[kind](c);
        c.cpu[kind] += cpuMicros(c.pid) - cpuBefore;
      }
    }
  }
  console.log(`load average after: ${load()}`);
  const anvilFigures = servers.at(-1).figures;
  const rows = [
    ["evm_mine", "mine", 2],
    ["eth_sendTransaction, mined", "send", 3],
    [`fixture loop (snapshot, ${FIXTURE_TRANSFERS} transfers + receipts, revert)`, "loop", undefined],
  ];
  for (const [label, kind, targetMs] of rows) {
    console.log(`\n${label}: ${rounds} rounds`);
    const reference = summary(anvilFigures[kind]);
    for (const c of servers) {
      const s = summary(c.figures[kind]);
      const ratio = c === servers.at(-1) ? "" : `, ${(s.median / reference.median).toFixed(2)}× anvil`;
      const target = targetMs && c.name === "xchain" ? `, target ≤ ${targetMs} ms median` : "";
      const loopTarget = kind === "loop" && c.name === "xchain" ? ", target ≤ 1.5× anvil" : "";
      const cpu = c.cpu[kind] / 1000 / c.figures[kind].length;
      console.log(
        `  ${c.name.padEnd(7)} median ${s.median.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms (n=${c.figures[kind].length}), ` +
          `server CPU ${cpu.toFixed(2)} ms each${ratio}${target}${loopTarget}`,
      );
    }
  }
  for (const c of servers) {
    console.log(
      `${c.name}: receipts asked for again (null at first): ${c.receiptRetries}; transfers lost and sent again: ${c.lost}`,
    );
  }
} finally {
  for (const c of servers) await c.stop();
}
