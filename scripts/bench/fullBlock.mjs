// One WebSocket client asking for the same full block (eth_getBlockByNumber with full
// transactions, ~35 KB of JSON) in a loop, one request at a time: answers per second. A regtest
// node on free ports mines one block of transfers from the ten cow accounts, each carrying
// calldata so that the answer is about 35 KB; then the hashes form is measured the same way.
// Needs a build (npm ci / npx tsc -b).
//
//   node scripts/bench/fullBlock.mjs [requests=20000] [transactions=30] [blockCacheBytes]
//
// blockCacheBytes sets the node's rpc.blockCacheBytes (0: every request formats the block again).
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {Transaction} from "@xchain/primitives";
import {cowAccounts, freePortFlags} from "@xchain/test-utils";
import {bytesToPrefixedHex} from "@xchain/utils";
import WebSocket from "ws";
import {startNode, stopNode} from "./nodeProcess.mjs";

const REQUESTS = Number(process.argv[2] ?? 20_000);
const TRANSACTIONS = Number(process.argv[3] ?? 30);
const CACHE_FLAGS = process.argv[4] === undefined ? [] : ["--rpc.blockCacheBytes", process.argv[4]];
const CALLDATA_BYTES = 256;

const dataDir = mkdtempSync(join(tmpdir(), "xchain-bench-fullblock-"));
const node = await startNode("full block", [
  ...freePortFlags(dataDir),
  "--p2p.enabled",
  "false",
  "--miner.blockTimeMs",
  "0",
  "--miner.autoMine",
  "false",
  ...CACHE_FLAGS,
]);

try {
  const socket = new WebSocket(node.ws);
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  let nextId = 1;
  const waiting = new Map();
  socket.on("message", (data) => {
    const reply = JSON.parse(data.toString());
    waiting.get(reply.id)?.({reply, bytes: data.length});
    waiting.delete(reply.id);
  });
  const call = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({jsonrpc: "2.0", id, method, params}));
    });

  const cows = cowAccounts();
  for (let i = 0; i < TRANSACTIONS; i++) {
    const cow = cows[i % cows.length];
    const values = {
      nonce: BigInt(Math.floor(i / cows.length)),
      gasPrice: 0n,
      gasLimit: 100_000n,
      to: cows[(i + 1) % cows.length].address,
      value: 1n,
      data: new Uint8Array(CALLDATA_BYTES).fill(i + 1),
    };
    const raw = bytesToPrefixedHex(Transaction.sign(values, cow.privateKey, 33).encode());
    const {reply} = await call("eth_sendRawTransaction", [raw]);
    if (reply.error) throw new Error(`send: ${reply.error.message}`);
  }
  // The miner's template follows the pool a moment later: mine once the pending block holds them all.
  for (;;) {
    const {reply} = await call("eth_getBlockByNumber", ["pending", false]);
    if (reply.result.transactions.length === TRANSACTIONS + 1) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await call("evm_mine", []);
  const {reply: head} = await call("eth_getBlockByNumber", ["latest", false]);
  const number = head.result.number;
  if (head.result.transactions.length !== TRANSACTIONS + 1) {
    throw new Error(`block ${number} holds ${head.result.transactions.length} transactions, not ${TRANSACTIONS + 1}`);
  }

  for (const full of [true, false]) {
    const first = await call("eth_getBlockByNumber", [number, full]);
    const count = first.reply.result.transactions.length;
    const started = performance.now();
    for (let i = 0; i < REQUESTS; i++) {
      const {reply} = await call("eth_getBlockByNumber", [number, full]);
      if (reply.error) throw new Error(reply.error.message);
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `eth_getBlockByNumber(${number}, ${full}): ${count} transactions, ${first.bytes} bytes: ` +
        `${REQUESTS} requests in ${seconds.toFixed(2)} s, ${Math.round(REQUESTS / seconds)} answers/s`,
    );
  }
  socket.close();
} finally {
  await stopNode(node);
}
