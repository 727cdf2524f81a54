// Overhead of the API-key gateway (docs/gateway.md) on eth_blockNumber and eth_getBalance
// throughput: two regtest nodes in one run, one keyless and one with rpc.gateway.enabled and a key
// whose rate is out of reach, measured in turns (off then on, on then off, …) at 32 requests in flight over
// keep-alive HTTP; each figure is the median of the rounds. Needs a build.
//
//   node scripts/bench/gateway.mjs [secondsPerRound=3] [rounds=3]
import {execFileSync} from "node:child_process";
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {startNode, stopNode} from "./nodeProcess.mjs";
import {measure} from "./rpc/loadGenerator.mjs";

const durationMs = Number(process.argv[2] ?? 3) * 1000;
const rounds = Number(process.argv[3] ?? 3);
const XCHAIN_BIN = join(import.meta.dirname, "..", "..", "packages", "node", "bin", "xchain.js");
const COW = "0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826";
const BASE = ["--p2p.enabled", "false", "--rpc.http.port", "0", "--rpc.ws.port", "0", "--log.level", "info"];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const offDir = mkdtempSync(join(tmpdir(), "xchain-bench-gw-off-"));
const onDir = mkdtempSync(join(tmpdir(), "xchain-bench-gw-on-"));
const added = execFileSync(
  process.execPath,
  [XCHAIN_BIN, "keys", "add", "--datadir", onDir, "--rps", "1000000000", "--burst", "1000000000"],
  {
    stdio: ["ignore", "pipe", "ignore"],
  },
).toString();
const secret = /^key\s+([0-9a-f]{64})$/m.exec(added)[1];
const off = await startNode("gateway off", ["--datadir", offDir, ...BASE]);
const on = await startNode("gateway on", ["--datadir", onDir, ...BASE, "--rpc.gateway.enabled"]);
try {
  const urls = {off: off.http, on: `${on.http}/${secret}`};
  const loads = [
    ["eth_blockNumber", {jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: []}],
    ["eth_getBalance", {jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [COW, "latest"]}],
  ];
  console.log("| method | gateway off (req/s) | gateway on (req/s) | overhead | p50 off / on (ms) |");
  console.log("|---|---|---|---|---|");
  for (const [name, body] of loads) {
    const results = {off: [], on: []};
    for (let round = 0; round < rounds; round++) {
      // The order alternates, so that neither side always runs right after the other.
      const sides = round % 2 === 0 ? ["off", "on"] : ["on", "off"];
      for (const side of sides)
        results[side].push(await measure(urls[side], JSON.stringify(body), {durationMs, warmupMs: 500}));
    }
    const offRate = median(results.off.map((r) => r.perSecond));
    const onRate = median(results.on.map((r) => r.perSecond));
    const p50 = (side) => median(results[side].map((r) => r.p50)).toFixed(2);
    const overhead = ((1 - onRate / offRate) * 100).toFixed(1);
    console.log(
      `| ${name} | ${offRate.toFixed(0)} | ${onRate.toFixed(0)} | ${overhead} % | ${p50("off")} / ${p50("on")} |`,
    );
  }
} finally {
  await Promise.all([stopNode(off), stopNode(on)]);
}
