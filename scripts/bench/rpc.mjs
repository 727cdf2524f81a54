// JSON-RPC throughput of xchain next to anvil, on loopback, in one run: requests/s and p50/p99
// latency at 32 requests in flight (keep-alive HTTP) for eth_blockNumber, eth_getBalance, eth_call
// of an ERC-20 balanceOf, a batch of 50 eth_getBalance and eth_getLogs over 20,000 logs; the
// end-to-end rate of 2,000 signed transfers from 50 senders (sent 32 at a time, until every
// receipt); then the ratio xchain/anvil of each. anvil (@foundry-rs/anvil 1.7.1) is installed
// into ~/.cache/xchain-bench on first use (XCHAIN_BENCH_CACHE to change). Needs a build.
//
//   node scripts/bench/rpc.mjs [secondsPerMethod=5]
import {hexToBytes, keccak256, utf8ToBytes} from "@xchain/utils";
import {measure} from "./rpc/loadGenerator.mjs";
import {startAnvil, startXchain} from "./rpc/servers.mjs";
import {BURST_SIZE, burst, LOG_COUNT, prepare} from "./rpc/workload.mjs";

const durationMs = Number(process.argv[2] ?? 5) * 1000;
/** anvil's first prefunded account (its default mnemonic). */
const ANVIL_FUNDER = hexToBytes("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
const COW = keccak256(utf8ToBytes("cow"));

function request(method, params) {
  return {jsonrpc: "2.0", id: 1, method, params};
}

/** The read loads, each a request body built from the prepared chain. */
function loads(chain) {
  const balance = request("eth_getBalance", [chain.funder, "latest"]);
  return [
    ["eth_blockNumber", request("eth_blockNumber", [])],
    ["eth_getBalance", balance],
    ["eth_call balanceOf", request("eth_call", [{to: chain.token, data: chain.balanceOfData}, "latest"])],
    ["batch of 50 eth_getBalance", Array.from({length: 50}, (_, i) => ({...balance, id: i + 1}))],
    [
      `eth_getLogs (${LOG_COUNT} logs)`,
      request("eth_getLogs", [{address: chain.emitter, fromBlock: "0x0", toBlock: "latest"}]),
    ],
  ];
}

async function run(server, funderKey) {
  process.stderr.write(`${server.name}: preparing the chain\n`);
  const chain = await prepare(server.url, funderKey);
  const results = new Map();
  for (const [name, body] of loads(chain)) {
    process.stderr.write(`${server.name}: ${name}\n`);
    results.set(name, await measure(server.url, JSON.stringify(body), {durationMs}));
  }
  process.stderr.write(`${server.name}: burst of ${BURST_SIZE} transfers\n`);
  results.set(`${BURST_SIZE} transfers, send to last receipt`, await burst(server.url, chain));
  return results;
}

const xchain = await startXchain();
let ours;
try {
  ours = await run(xchain, COW);
} finally {
  await xchain.stop();
}
const anvil = await startAnvil();
let theirs;
try {
  theirs = await run(anvil, ANVIL_FUNDER);
} finally {
  await anvil.stop();
}

const cell = (r) =>
  `${r.perSecond.toFixed(0).padStart(7)}/s ${r.p50 === undefined ? "" : `p50 ${r.p50.toFixed(2)} p99 ${r.p99.toFixed(2)} ms`}`;
console.log(`${"".padEnd(36)} ${"xchain".padEnd(34)} ${"anvil".padEnd(34)} xchain/anvil`);
for (const [name, mine] of ours) {
  const other = theirs.get(name);
  console.log(
    `${name.padEnd(36)} ${cell(mine).padEnd(34)} ${cell(other).padEnd(34)} ${(mine.perSecond / other.perSecond).toFixed(2)}`,
  );
}
