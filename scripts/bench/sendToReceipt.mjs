// The dev loop's latency on a regtest node with its defaults (built-in miner on): N sequential
// transfers, each signed locally, sent with eth_sendRawTransaction and its receipt polled at once
// (then every 2 ms) until it exists; prints the p50/p95/max of send → receipt and how many receipts
// the first poll found (what ethers' `tx.wait()` and viem's `waitForTransactionReceipt` see).
// Then the burst of rpc.mjs alone (2,000 transfers from 50 senders, 32 in flight, to the last
// receipt), on the same node. Needs a build. Extra arguments go to `xchain start`.
//
//   node scripts/bench/sendToReceipt.mjs [transfers=200] [-- --miner.instant false ...]
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {setTimeout as sleep} from "node:timers/promises";
import {publicKeyToAddress, Transaction} from "@xchain/primitives";
import {freePortFlags} from "@xchain/test-utils";
import {bytesToPrefixedHex, keccak256, publicKeyOf, utf8ToBytes} from "@xchain/utils";
import {startNode, stopNode} from "./nodeProcess.mjs";
import {call, keepAliveAgent} from "./rpc/loadGenerator.mjs";
import {BURST_SIZE, burst, prepare} from "./rpc/workload.mjs";

const separator = process.argv.indexOf("--");
const transfers = Number(process.argv[2] && process.argv[2] !== "--" ? process.argv[2] : 200);
const extraFlags = separator === -1 ? [] : process.argv.slice(separator + 1);
const COW = keccak256(utf8ToBytes("cow"));
const CHAIN_ID = 33;
const POLL_MS = 2;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Sends `count` transfers one after the other; the send → receipt time of each, and first-poll hits. */
async function sequential(url, count) {
  const agent = keepAliveAgent(1);
  const from = bytesToPrefixedHex(publicKeyToAddress(publicKeyOf(COW)));
  let nonce = BigInt(await call(agent, url, "eth_getTransactionCount", [from, "pending"]));
  const gasPrice = BigInt(await call(agent, url, "eth_gasPrice"));
  const to = keccak256(utf8ToBytes("send to receipt sink")).subarray(12);
  const times = [];
  let firstPoll = 0;
  for (let i = 0; i < count; i++) {
    const raw = Transaction.sign(
      {nonce: nonce++, gasPrice, gasLimit: 21_000n, to, value: 1n, data: new Uint8Array(0)},
      COW,
      CHAIN_ID,
    ).encode();
    const started = performance.now();
    const hash = await call(agent, url, "eth_sendRawTransaction", [bytesToPrefixedHex(raw)]);
    for (let poll = 0; ; poll++) {
      const receipt = await call(agent, url, "eth_getTransactionReceipt", [hash]);
      if (receipt) {
        if (receipt.status !== "0x1") throw new Error(`transfer ${hash} failed`);
        if (poll === 0) firstPoll++;
        break;
      }
      await sleep(POLL_MS);
    }
    times.push(performance.now() - started);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return {p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1), firstPoll};
}

const dataDir = mkdtempSync(join(tmpdir(), "xchain-bench-send-"));
const node = await startNode("xchain", [...freePortFlags(dataDir), ...extraFlags]);
try {
  const seq = await sequential(node.http, transfers);
  console.log(
    `${transfers} sequential transfers, send → receipt: p50 ${seq.p50.toFixed(1)} ms, p95 ${seq.p95.toFixed(1)} ms, ` +
      `max ${seq.max.toFixed(1)} ms; found on the first poll: ${seq.firstPoll}/${transfers}`,
  );
  process.stderr.write("preparing the burst's senders\n");
  const chain = await prepare(node.http, COW);
  const head = async () => Number(await call(keepAliveAgent(1), node.http, "eth_blockNumber"));
  const before = await head();
  const result = await burst(node.http, chain);
  console.log(
    `${BURST_SIZE} transfers, send → last receipt: ${result.perSecond.toFixed(0)}/s (${result.seconds.toFixed(2)} s) ` +
      `in ${(await head()) - before} blocks`,
  );
} finally {
  await stopNode(node);
  rmSync(dataDir, {recursive: true, force: true});
}
