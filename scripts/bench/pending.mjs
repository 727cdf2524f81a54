// The pending block's cost (docs/rpc.md §4.3), in process on a regtest chain (Chain on a
// MemoryStore, TxPool, Miner with the built-in miner off, RpcServer): with `poolSize` transfers
// waiting in the pool,
//   1. one build of the pending block after the pool changed (what the first `pending` request
//      after each new transaction pays), median of `builds` builds;
//   2. eth_getBalance at `latest` and at `pending` (the pending block cached), 32 in flight.
// Needs a build.
//
//   node scripts/bench/pending.mjs [poolSize=200] [builds=20] [secondsPerMethod=3]
import {Chain, defaultChainOptions} from "@xchain/chain";
import {getChainspec, regtestGenesis} from "@xchain/chainspec";
import {MemoryStore} from "@xchain/db";
import {BlockExecutor} from "@xchain/execution";
import {defaultMinerOptions, Miner} from "@xchain/miner";
import {Transaction} from "@xchain/primitives";
import {defaultRpcOptions, RpcServer} from "@xchain/rpc";
import {defaultStateOptions, StateDatabase} from "@xchain/state";
import {cowAccounts} from "@xchain/test-utils";
import {defaultTxPoolOptions, TxPool} from "@xchain/txpool";
import {toData} from "@xchain/utils";
import {measure} from "./rpc/loadGenerator.mjs";

const [poolSize, builds, seconds] = [200, 20, 3].map((d, i) => Number(process.argv[2 + i] ?? d));
const chainspec = getChainspec("regtest");
const store = new MemoryStore();
const state = new StateDatabase(defaultStateOptions, {store});
const chain = await Chain.open(defaultChainOptions, {store, chainspec, genesis: regtestGenesis, state});
const txpool = new TxPool(defaultTxPoolOptions, {chainspec, chain});
const miner = new Miner(
  {...defaultMinerOptions(chainspec), enabled: false},
  {
    chain,
    txpool,
    assembler: new BlockExecutor({}, {chainspec, state: new StateDatabase(defaultStateOptions, {store})}),
    chainspec,
    pendingState: state,
  },
);
const server = await RpcServer.start(
  {...defaultRpcOptions, http: {...defaultRpcOptions.http, port: 0}, ws: {...defaultRpcOptions.ws, enabled: false}},
  {
    chainspec,
    chain,
    txpool,
    miner,
    pendingBlock: miner,
    executor: new BlockExecutor({}, {chainspec, state}),
    clientVersion: "xchain/bench",
  },
);

const cows = cowAccounts();
const recipient = new Uint8Array(20).fill(0xaa);
const nonces = cows.map(() => 0n);
let next = 0;
/** Adds one transfer from the next cow account in turn. */
async function addTransfer() {
  const i = next++ % cows.length;
  const tx = Transaction.sign(
    {nonce: nonces[i]++, gasPrice: 0n, gasLimit: 21_000n, to: recipient, value: 1n, data: new Uint8Array(0)},
    cows[i].privateKey,
    chainspec.params.chainId,
  );
  await txpool.add(tx);
}

for (let i = 0; i < poolSize; i++) await addTransfer();
const times = [];
for (let i = 0; i < builds; i++) {
  await addTransfer();
  const t = performance.now();
  const {block} = await miner.pendingBlock();
  times.push(performance.now() - t);
  if (i === 0) console.log(`pool ${poolSize + 1}+ transfers; the pending block holds ${block.transactions.length - 1}`);
}
times.sort((a, b) => a - b);
console.log(
  `pending block build after a pool change: median ${times[times.length >> 1].toFixed(1)} ms, max ${times.at(-1).toFixed(1)} ms`,
);

const url = `http://127.0.0.1:${server.httpPort}`;
const body = (tag) =>
  JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [toData(recipient), tag]});
for (const tag of ["latest", "pending"]) {
  const {perSecond, p50} = await measure(url, body(tag), {durationMs: seconds * 1000});
  console.log(`eth_getBalance at ${tag.padEnd(7)} ${perSecond.toFixed(0).padStart(6)} req/s  p50 ${p50.toFixed(2)} ms`);
}
await server.close();
await miner.close();
await txpool.close();
