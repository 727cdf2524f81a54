// Two builds of xchain side by side, for a change that must not move the figures (a restructuring):
// a regtest node from another checkout (`--before DIR`, built) and one from this checkout, both up
// at once on loopback with the same chain (rpc/workload.mjs), then each read load of rpc.mjs driven
// on one node and then the other, round after round, so that the machine's drift falls on both. Each
// cell is requests/s and the server's CPU µs per request (32 in flight, keep-alive HTTP); the last
// column is after/before of the medians. Then the burst of transfers on each, alternated the same way.
//
//   node scripts/bench/compare.mjs --before=../base [rounds=4] [secondsPerLoad=3]
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join, resolve} from "node:path";
import {keccak256, utf8ToBytes} from "@xchain/utils";
import {localNodeArgs, startNode, stopNode} from "./nodeProcess.mjs";
import {cpuMicros} from "./rpc/cpu.mjs";
import {DISTINCT, measure} from "./rpc/loadGenerator.mjs";
import {burst, prepare} from "./rpc/workload.mjs";

const args = process.argv.slice(2);
const before = args.find((a) => a.startsWith("--before="))?.slice("--before=".length);
if (!before) throw new Error("usage: node scripts/bench/compare.mjs --before=DIR [rounds=4] [secondsPerLoad=3]");
const [rounds = 4, seconds = 3] = args.filter((a) => !a.startsWith("--")).map(Number);
const COW = keccak256(utf8ToBytes("cow"));
const binOf = (checkout) => join(resolve(checkout), "packages", "node", "bin", "xchain.js");
const checkouts = [
  ["before", binOf(before)],
  ["after", binOf(join(import.meta.dirname, "..", ".."))],
];

const request = (method, params) => ({jsonrpc: "2.0", id: 1, method, params});
function loads(chain) {
  const balance = request("eth_getBalance", [chain.funder, "latest"]);
  const balanceOf = (data) => request("eth_call", [{to: chain.token, data}, "latest"]);
  return [
    ["eth_blockNumber", request("eth_blockNumber", [])],
    ["eth_getBalance", balance],
    ["eth_call balanceOf, repeated", balanceOf(chain.balanceOfData)],
    ["eth_call balanceOf, distinct", balanceOf(`${chain.balanceOfData.slice(0, 34)}${DISTINCT}`)],
    ["batch of 50 eth_getBalance", Array.from({length: 50}, (_, i) => ({...balance, id: i + 1}))],
  ];
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const dirs = [];
const nodes = [];
try {
  for (const [name, bin] of checkouts) {
    const dir = mkdtempSync(join(tmpdir(), `xchain-compare-${name}-`));
    dirs.push(dir);
    const node = await startNode(name, localNodeArgs(dir), {bin});
    process.stderr.write(`${name}: preparing the chain\n`);
    nodes.push({name, node, chain: await prepare(node.http, COW)});
  }
  console.log(`${rounds} rounds, ${seconds} s per load and node; cells: requests/s, server CPU µs per request`);
  console.log(`${"load".padEnd(30)} ${"before".padEnd(48)} ${"after".padEnd(48)} after/before`);
  for (const [index, [name]] of loads(nodes[0].chain).entries()) {
    const figures = nodes.map(() => []);
    for (let round = 0; round < rounds; round++) {
      // Alternate which node goes first, so that neither always follows the other's load.
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) {
        const {node, chain} = nodes[i];
        const body = JSON.stringify(loads(chain)[index][1]);
        let cpu0 = 0;
        const result = await measure(node.http, body, {
          durationMs: seconds * 1000,
          onStart: () => {
            cpu0 = cpuMicros(node.child.pid);
          },
        });
        figures[i].push({perSecond: result.perSecond, cpu: (cpuMicros(node.child.pid) - cpu0) / result.count});
      }
    }
    const cells = figures.map((runs) => runs.map((r) => `${r.perSecond.toFixed(0)}/${r.cpu.toFixed(0)}`).join(" "));
    const ratio = median(figures[1].map((r) => r.perSecond)) / median(figures[0].map((r) => r.perSecond));
    console.log(`${name.padEnd(30)} ${cells[0].padEnd(48)} ${cells[1].padEnd(48)} ${ratio.toFixed(2)}`);
  }
  const bursts = nodes.map(() => []);
  for (let round = 0; round < Math.min(rounds, 2); round++) {
    for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
      bursts[i].push((await burst(nodes[i].node.http, nodes[i].chain)).perSecond);
    }
  }
  const burstCells = bursts.map((runs) => runs.map((r) => r.toFixed(0)).join(" "));
  console.log(
    `${"burst of transfers (tx/s)".padEnd(30)} ${burstCells[0].padEnd(48)} ${burstCells[1].padEnd(48)} ${(median(bursts[1]) / median(bursts[0])).toFixed(2)}`,
  );
} finally {
  for (const {node} of nodes) await stopNode(node);
  for (const dir of dirs) rmSync(dir, {recursive: true, force: true});
}
