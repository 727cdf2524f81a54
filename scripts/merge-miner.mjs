// A merge-miner for any xchain node, through its JSON-RPC alone (docs/mining.md). Two modes:
//
//   mnr: mnr_getWork -> a one-transaction Bitcoin block whose coinbase carries
//        "RSKBLOCK:" + blockHashForMergedMining -> grind its nonce to the target ->
//        mnr_submitBitcoinBlock(block hex without 0x, as rskj expects)
//   eth: eth_getWork -> grind the nonce from the SHA-256 midstate and the 12-byte header tail ->
//        eth_submitWork(nonce, midstate, zero mix digest)
//
// Grinding runs on one CPU core in JavaScript: enough for regtest (target about 2^256 / 3), not
// for mainnet or testnet difficulty. Needs a build (`npm run build`).
//
//   node scripts/merge-miner.mjs [--rpc http://127.0.0.1:4444] [--mode mnr|eth] [--blocks N] [--interval MS]
//
// --blocks 0 (the default) mines until interrupted; --interval waits between blocks. Each block is
// printed as "mined block <number> <hash> (<mode>, <detail>)"; a rejected solution is printed to
// stderr in one line and mining goes on with new work; a connection the node (or a proxy) closed or
// reset before answering is retried on a fresh connection, up to 3 times with backoff, one stderr
// line per retry; an unreachable node, or 10 failures in a row, ends the process with exit code 1.
import {randomBytes} from "node:crypto";
import {setTimeout as sleep} from "node:timers/promises";
import {parseArgs} from "node:util";
import {buildFakeBitcoinBlock, grindNonce, serializeBitcoinBlock} from "@xchain/merged-mining";
import {ethWorkPowValue} from "@xchain/miner";
import {bytesToHex, hexToBytes} from "@xchain/utils";

const USAGE = `usage: node scripts/merge-miner.mjs [--rpc URL] [--mode mnr|eth] [--blocks N] [--interval MS]

Mines an xchain node through its JSON-RPC (docs/mining.md), on one CPU core: regtest, not mainnet.

  --rpc URL        the node's HTTP JSON-RPC (default http://127.0.0.1:4444)
  --mode mnr|eth   mnr: mnr_getWork + mnr_submitBitcoinBlock; eth: eth_getWork + eth_submitWork (default mnr)
  --blocks N       blocks to mine; 0 mines until interrupted (default 0)
  --interval MS    milliseconds to wait after each block (default 0)
  -h, --help       this text
`;

let values;
try {
  ({values} = parseArgs({
    options: {
      rpc: {type: "string", default: "http://127.0.0.1:4444"},
      mode: {type: "string", default: "mnr"},
      blocks: {type: "string", default: "0"},
      interval: {type: "string", default: "0"},
      help: {type: "boolean", short: "h", default: false},
    },
  }));
} catch (e) {
  process.stderr.write(`merge-miner: ${e.message}\nRun 'node scripts/merge-miner.mjs --help' for usage.\n`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const blocks = Number(values.blocks);
const interval = Number(values.interval);
if (!["mnr", "eth"].includes(values.mode) || !Number.isSafeInteger(blocks) || blocks < 0 || !(interval >= 0)) {
  process.stderr.write(`merge-miner: bad --mode, --blocks or --interval\n${USAGE}`);
  process.exit(2);
}

const NONCE_SPACE = 2 ** 32;
const MAX_FAILURES_IN_A_ROW = 10;
const RETRY_MS = 200;
// A connection lost before the answer: a keep-alive connection the server closed as the request went
// out ("other side closed"), or one reset on the way. Not a refused connection: that node is down.
const TRANSIENT_CODES = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]);
const TRANSPORT_RETRIES = 3;
const TRANSPORT_BACKOFF_MS = 100;
let requestId = 0;

/**
 * One JSON-RPC call; an error answer throws an RpcError, a transport failure a TypeError from fetch.
 * A transient one is retried: fetch's pool drops a socket that failed, so the retry runs on a new
 * connection. Every method here may be sent twice: mnr_getWork, eth_getWork and eth_getBlockByNumber
 * only read, and a solution the node already imported answers EXIST (eth_submitWork true) rather than
 * a second block; a block is counted once, when its answer arrives.
 */
async function rpc(method, params) {
  const body = JSON.stringify({jsonrpc: "2.0", id: ++requestId, method, params});
  for (let retry = 1; ; retry++) {
    try {
      return await post(method, body);
    } catch (e) {
      const cause = e instanceof TypeError ? e.cause : undefined;
      if (!TRANSIENT_CODES.has(cause?.code) || retry > TRANSPORT_RETRIES) throw e;
      process.stderr.write(
        `${method}: connection lost (${cause.message}); retry ${retry}/${TRANSPORT_RETRIES} on a fresh connection\n`,
      );
      await sleep(TRANSPORT_BACKOFF_MS * 2 ** (retry - 1));
    }
  }
}

async function post(method, body) {
  const response = await fetch(values.rpc, {method: "POST", headers: {"content-type": "application/json"}, body});
  const answer = await response.json();
  if (answer.error) throw new RpcError(method, answer.error);
  return answer.result;
}

class RpcError extends Error {
  constructor(method, error) {
    super(`${method}: ${error.code} ${error.message}`);
  }
}

/** mnr_getWork, a fake Bitcoin block around the work, mnr_submitBitcoinBlock. */
async function mineThroughMnr() {
  const work = await rpc("mnr_getWork", []);
  const target = BigInt(work.target);
  const fake = buildFakeBitcoinBlock({
    hashForMergedMining: hexToBytes(work.blockHashForMergedMining),
    time: Math.floor(Date.now() / 1000),
    // A random extranonce before the tag: every attempt gets its own coinbase.
    prefix: randomBytes(4),
  });
  const header = grindNonce(fake.header, target, NONCE_SPACE);
  if (!header) throw new Error("no nonce reaches the target");
  const result = await rpc("mnr_submitBitcoinBlock", [bytesToHex(serializeBitcoinBlock(header, [fake.coinbase]))]);
  const imported = Buffer.from(result.blockImportedResult.slice(2), "hex").toString("ascii");
  return {number: Number(result.blockIncludedHeight), hash: result.blockHash, detail: imported};
}

/** eth_getWork, the nonce ground from midstate and tail, eth_submitWork. */
async function mineThroughEth() {
  const [powHash, tailHex, boundary] = await rpc("eth_getWork", []);
  const midstate = hexToBytes(powHash);
  const tail = hexToBytes(tailHex);
  const target = BigInt(boundary);
  let nonce = 0;
  while (nonce < NONCE_SPACE && ethWorkPowValue(midstate, tail, nonce) > target) nonce++;
  if (nonce === NONCE_SPACE) throw new Error("no nonce reaches the target");
  const nonceHex = `0x${nonce.toString(16).padStart(16, "0")}`;
  if (!(await rpc("eth_submitWork", [nonceHex, powHash, `0x${"00".repeat(32)}`]))) {
    throw new Error(`eth_submitWork refused nonce ${nonceHex}`);
  }
  const block = await rpc("eth_getBlockByNumber", ["latest", false]);
  return {number: Number(block.number), hash: block.hash, detail: `nonce ${nonceHex}`};
}

const mine = values.mode === "mnr" ? mineThroughMnr : mineThroughEth;
let mined = 0;
let failures = 0;
while (blocks === 0 || mined < blocks) {
  try {
    const block = await mine();
    mined++;
    failures = 0;
    process.stdout.write(`mined block ${block.number} ${block.hash} (${values.mode}, ${block.detail})\n`);
    if (interval > 0) await sleep(interval);
  } catch (e) {
    if (e instanceof TypeError) {
      process.stderr.write(`cannot reach ${values.rpc}: ${e.cause?.message ?? e.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`${e.message}; mining on new work\n`);
    if (++failures === MAX_FAILURES_IN_A_ROW) process.exit(1);
    await sleep(RETRY_MS);
  }
}
