// Fork mode side by side with anvil (docs/performance.md §24): an upstream xchain
// regtest node on loopback holding an ERC-20 with 10,000 holders and a constant-product pair
// (fork/upstream.mjs, cached between runs), a counting proxy in front of it (fork/countingProxy.mjs),
// and for each fork client a cold run (empty fork cache) then a warm run (a new process on the same
// cache) of a test-suite-like sequence (fork/sequence.mjs), `rounds` times with the clients' order
// alternating; times are medians. Each run's remote figures are what reached the proxy from the fork
// process's start to the sequence's end, with the time the client waited on them ("upstream": from a
// request's arrival at the proxy to its answer, summed); its wall time is the start (until eth_chainId
// answers) plus the sequence.
//
//   node scripts/bench/fork.mjs [--fresh] [--holders=10000] [--only=xchain|anvil] [--rounds=3] [-- <extra xchain flags>]
//
// anvil is `anvil --fork-url <proxy> --fork-block-number F` (1.7.1, rpc/servers.mjs) with a temporary
// HOME: its fork cache is ~/.foundry/cache/rpc/<chain>/<block>/storage.json, written when it exits.
// xchain is `xchain start --fork.url <proxy> --fork.block F` on a fresh data directory per run, both
// runs sharing one fork.cacheDir (a warm run is a new chain on the same cache, as anvil's is).
import {cpSync, mkdtempSync, readdirSync, rmSync, statSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {Client} from "./fork/client.mjs";
import {CountingProxy} from "./fork/countingProxy.mjs";
import {runSequence} from "./fork/sequence.mjs";
import {startUpstream} from "./fork/upstream.mjs";
import {anvilBinary, freePort, startServer} from "./rpc/servers.mjs";

const XCHAIN_BIN = join(import.meta.dirname, "..", "..", "packages", "node", "bin", "xchain.js");
const argv = process.argv.slice(2);
const separator = argv.indexOf("--");
const flags = separator < 0 ? argv : argv.slice(0, separator);
const extraXchainFlags = separator < 0 ? [] : argv.slice(separator + 1);
const option = (name) => flags.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const holders = Number(option("holders") ?? 10_000);
const only = option("only");
const rounds = Number(option("rounds") ?? 3);

/** Flags of an xchain node alone on loopback with `dataDir`, HTTP on `port`. */
const xchainArgs = (dataDir, port) => [
  ...[XCHAIN_BIN, "start", "--datadir", dataDir, "--rpc.http.port", String(port), "--rpc.ws.enabled", "false"],
  ...["--p2p.enabled", "false", "--log.level", "warn", "--miner.blockTimeMs", "0", ...extraXchainFlags],
];

/** Starts xchain with `args` (less its data directory) on a data directory `prepare` filled; removes it on stop. */
async function startXchainOn(dataDir, args) {
  const port = await freePort();
  const server = await startServer(
    "xchain",
    process.execPath,
    [...xchainArgs(dataDir, port), ...args],
    `http://127.0.0.1:${port}`,
  );
  return {...server, stop: () => server.stop().then(() => rmSync(dataDir, {recursive: true, force: true}))};
}

/**
 * The clients: each names its runs, `prepare`s a run outside the clock (a data directory) and `start`s
 * it on the run pair's `cacheDir`. "xchain, no fork" is the reference: the same sequence on a copy of
 * the upstream's own data directory (the upstream is idle, so its files do not move while copied), no
 * remote request at all: what the node itself spends on the sequence.
 */
const clients = [
  {
    name: "xchain",
    runs: ["cold", "warm"],
    prepare: () => mkdtempSync(join(tmpdir(), "xchain-bench-fork-")),
    start: (upstreamUrl, forkBlock, cacheDir, dataDir) =>
      startXchainOn(dataDir, [
        "--fork.url",
        upstreamUrl,
        "--fork.block",
        String(forkBlock),
        "--fork.cacheDir",
        cacheDir,
      ]),
  },
  {
    name: "anvil",
    runs: ["cold", "warm"],
    prepare: () => undefined,
    async start(upstreamUrl, forkBlock, home) {
      const port = await freePort();
      const args = ["--host", "127.0.0.1", "--port", String(port), "--silent"];
      args.push("--fork-url", upstreamUrl, "--fork-block-number", String(forkBlock));
      return startServer("anvil", anvilBinary(), args, `http://127.0.0.1:${port}`, {env: {HOME: home}});
    },
  },
  {
    name: "xchain, no fork",
    runs: ["local"],
    prepare(upstream) {
      const dataDir = mkdtempSync(join(tmpdir(), "xchain-bench-fork-local-"));
      cpSync(upstream.dataDir, dataDir, {recursive: true, filter: (source) => !source.endsWith("LOCK")});
      return dataDir;
    },
    start: (_upstreamUrl, _forkBlock, _cacheDir, dataDir) => startXchainOn(dataDir, []),
  },
].filter((c) => only === undefined || c.name.startsWith(only));

/** Bytes of the files under `dir`. */
function sizeOf(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, {withFileTypes: true, recursive: true})) {
    if (entry.isFile()) bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return bytes;
}

/** One run of `client`: starts it on `cacheDir`, runs the sequence, stops it; the figures. */
async function measureRun(client, run, proxy, proxyUrl, upstream, cacheDir) {
  const prepared = client.prepare(upstream);
  proxy.reset();
  const start = performance.now();
  const server = await client.start(proxyUrl, upstream.fixture.forkBlock, cacheDir, prepared);
  const startSeconds = (performance.now() - start) / 1000;
  const rpc = new Client(server.url);
  try {
    const {seconds: sequenceSeconds, gasUsed} = await runSequence(rpc, upstream);
    return {client: client.name, run, startSeconds, sequenceSeconds, gasUsed, ...proxy.snapshot()};
  } finally {
    rpc.close();
    await server.stop();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const upstream = await startUpstream({holders, fresh: flags.includes("--fresh")});
const proxy = new CountingProxy(upstream.node.http);
const proxyUrl = await proxy.start();
const results = [];
const cacheBytes = new Map();
try {
  for (let round = 0; round < rounds; round++) {
    // Alternate which client goes first, so that neither always runs on a machine the other warmed.
    for (const client of round % 2 === 0 ? clients : [...clients].reverse()) {
      const cacheDir = mkdtempSync(join(tmpdir(), `xchain-bench-fork-cache-${client.name}-`));
      try {
        for (const run of client.runs) {
          results.push(await measureRun(client, run, proxy, proxyUrl, upstream, cacheDir));
          process.stderr.write(`round ${round + 1}: ${client.name} ${run} done\n`);
        }
        if (client.runs.includes("warm")) cacheBytes.set(client.name, sizeOf(cacheDir));
      } finally {
        rmSync(cacheDir, {recursive: true, force: true});
      }
    }
  }
} finally {
  await proxy.stop();
  await upstream.stop();
}

/** The runs of one client and kind, summed up: median times, the remote figures (the same every round, else flagged). */
function summary(client, run) {
  const runs = results.filter((r) => r.client === client && r.run === run);
  if (runs.length === 0) return undefined;
  const counts = new Set(runs.map((r) => `${r.requests}/${r.calls}`));
  return {
    startSeconds: median(runs.map((r) => r.startSeconds)),
    sequenceSeconds: median(runs.map((r) => r.sequenceSeconds)),
    totalSeconds: median(runs.map((r) => r.startSeconds + r.sequenceSeconds)),
    upstreamSeconds: median(runs.map((r) => r.upstreamSeconds)),
    requests: runs.at(-1).requests,
    calls: runs.at(-1).calls,
    byMethod: runs.at(-1).byMethod,
    gasUsed: runs.at(-1).gasUsed,
    steady: counts.size === 1 ? "" : ` (varied between rounds: ${[...counts].join(", ")})`,
  };
}

const s = (seconds) => `${seconds.toFixed(2)} s`.padStart(9);
console.log(
  `upstream: xchain regtest, ${holders} holders, fork block ${upstream.fixture.forkBlock}; ${rounds} rounds, median times`,
);
console.log(
  `${"client".padEnd(15)} ${"run".padEnd(5)} ${"start".padStart(9)} ${"sequence".padStart(9)} ${"total".padStart(9)} ${"upstream".padStart(9)} ${"HTTP req".padStart(9)} ${"calls".padStart(7)}  calls by method`,
);
for (const client of clients) {
  for (const run of client.runs) {
    const r = summary(client.name, run);
    const methods = Object.entries(r.byMethod)
      .map(([m, n]) => `${m} ${n}`)
      .join(", ");
    console.log(
      `${client.name.padEnd(15)} ${run.padEnd(5)} ${s(r.startSeconds)} ${s(r.sequenceSeconds)} ${s(r.totalSeconds)} ${s(r.upstreamSeconds)} ${String(r.requests).padStart(9)} ${String(r.calls).padStart(7)}  ${methods}${r.steady}`,
    );
  }
}
for (const client of clients) {
  // The same transactions on the same state: a difference is the two clients' gas schedules.
  console.log(
    `${client.name}: gas used by the sequence's transactions ${summary(client.name, client.runs[0]).gasUsed}`,
  );
}
for (const [name, bytes] of cacheBytes)
  console.log(`${name}: fork cache after a cold and a warm run ${(bytes / 1024).toFixed(0)} KiB`);
for (const run of ["cold", "warm"]) {
  const x = summary("xchain", run);
  const a = summary("anvil", run);
  if (!x || !a) continue;
  console.log(
    `${run}: xchain/anvil wall time ${(x.totalSeconds / a.totalSeconds).toFixed(2)}, HTTP requests ${x.requests}/${a.requests}, calls ${x.calls}/${a.calls}`,
  );
}
