// Blocks of 100 signed value transfers (many senders, new recipients) through BlockExecutor on the
// real StateDatabase over LevelDB, with sender recovery measured in the same run.
// Build first: npm run build    Run: node scripts/bench/execution.mjs [blocks]
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {performance} from "node:perf_hooks";
import {getChainspec} from "@xchain/chainspec";
import {LevelStore, WriteBatch} from "@xchain/db";
import {BlockExecutor, gasProfileAt, receiptsRoot, transactionsRoot} from "@xchain/execution";
import {createRemascTransaction, Transaction} from "@xchain/primitives";
import {buildGenesisState, defaultStateOptions, StateDatabase} from "@xchain/state";
import {keccak256, secp256k1Backend, utf8ToBytes} from "@xchain/utils";
// Not exported: the block run's steps, to time them one by one.
import {BlockRun} from "../../packages/execution/dist/blockRun.js";

const print = (line) => process.stdout.write(`${line}\n`);
const BLOCKS = Number(process.argv[2] ?? 50);
const PER_BLOCK = 100;
const SENDERS = 1000;
const chainspec = getChainspec("regtest");
const chainId = chainspec.params.chainId;
const keys = Array.from({length: SENDERS}, (_, i) => keccak256(utf8ToBytes(`bench sender ${i}`)));
const decode = (bytes) => Transaction.decode(bytes, {chainId});

function recipient(n) {
  const bytes = new Uint8Array(20);
  bytes[0] = 0xbe;
  new DataView(bytes.buffer).setUint32(16, n);
  return bytes;
}

function context(number) {
  return {
    block: {
      number,
      timestamp: 1_700_000_000 + number,
      coinbase: new Uint8Array(20).fill(0xcb),
      difficulty: 1n,
      gasLimit: 6_800_000n,
      minimumGasPrice: 0n,
    },
    chain: {blockHash: async () => undefined, remasc: undefined},
  };
}

// Signed transactions as raw bytes, as block import receives them.
const nonces = new Array(SENDERS).fill(0n);
const senders = [];
const raw = [];
for (let b = 0; b < BLOCKS; b++) {
  const block = [];
  for (let i = 0; i < PER_BLOCK; i++) {
    const s = (b * PER_BLOCK + i) % SENDERS;
    const values = {
      nonce: nonces[s]++,
      gasPrice: 1n,
      gasLimit: 21_000n,
      to: recipient(b * PER_BLOCK + i),
      value: 1n,
      data: new Uint8Array(0),
    };
    const tx = Transaction.sign(values, keys[s], chainId);
    if (b * PER_BLOCK + i < SENDERS) senders.push(tx.sender());
    block.push(tx.encode());
  }
  raw.push(block);
}

const opened = [];
async function freshState() {
  const dir = mkdtempSync(join(tmpdir(), "xchain-bench-"));
  const store = await LevelStore.open(dir);
  opened.push([store, dir]);
  const state = new StateDatabase(defaultStateOptions, {store});
  const executor = new BlockExecutor({}, {chainspec, state});
  const genesis = await buildGenesisState(
    state,
    senders.map((a) => [a, {balance: 10n ** 24n}]),
    executor.commonAt(0),
  );
  await store.write(new WriteBatch().append(genesis.writes));
  return {store, state, executor, root: genesis.root};
}

async function importBlocks(count, phases) {
  const {store, executor, root: genesisRoot} = await freshState();
  let root = genesisRoot;
  for (let b = 0; b < count; b++) {
    let t = performance.now();
    const txs = raw[b].map(decode);
    phases.decode += performance.now() - t;
    t = performance.now();
    const transactions = [...txs, createRemascTransaction(b + 1)];
    const result = await executor.execute({...context(b + 1), transactions, parentStateRoot: root});
    phases.execute += performance.now() - t;
    t = performance.now();
    await store.write(new WriteBatch().append(result.stateWrites));
    phases.persist += performance.now() - t;
    root = result.stateRoot;
  }
}

// 0. Warm-up (JIT) on a throwaway database.
await importBlocks(Math.min(10, BLOCKS), {decode: 0, execute: 0, persist: 0});

// 1. Sender recovery alone (decode + recover) on fresh objects.
let started = performance.now();
for (const block of raw) for (const bytes of block) decode(bytes).sender();
const recoverySeconds = (performance.now() - started) / 1000;

// 2. The import path: decode, execute (recovery inside), persist the state writes in a batch.
const phases = {decode: 0, execute: 0, persist: 0};
started = performance.now();
await importBlocks(BLOCKS, phases);
const importSeconds = (performance.now() - started) / 1000;

// 3. Execution alone, step by step (senders recovered beforehand), on a fresh database.
const decoded = raw.map((block) => block.map(decode));
for (const block of decoded) for (const tx of block) tx.sender();
const {store, state, executor, root: genesisRoot} = await freshState();
let root = genesisRoot;
const steps = {
  openSessionAndEvm: 0,
  validate: 0,
  run: 0,
  remasc: 0,
  stateFlush: 0,
  sessionCommit: 0,
  roots: 0,
  persist: 0,
};
const profile = gasProfileAt(chainspec, 1);
const common = executor.commonAt(1);
started = performance.now();
for (let b = 0; b < BLOCKS; b++) {
  let t = performance.now();
  const run = await BlockRun.open({
    chainspec,
    profile,
    common,
    stateSource: state,
    ...context(b + 1),
    parentStateRoot: root,
  });
  steps.openSessionAndEvm += performance.now() - t;
  for (const tx of decoded[b]) {
    t = performance.now();
    const message = await run.validate(tx);
    steps.validate += performance.now() - t;
    t = performance.now();
    await run.apply(tx, message);
    steps.run += performance.now() - t;
  }
  t = performance.now();
  await run.applyRemasc(createRemascTransaction(b + 1));
  steps.remasc += performance.now() - t;
  t = performance.now();
  await run.session.stateManager.commit();
  steps.stateFlush += performance.now() - t;
  t = performance.now();
  const commit = await run.session.commit();
  steps.sessionCommit += performance.now() - t;
  t = performance.now();
  receiptsRoot(run.receipts);
  transactionsRoot(run.transactions);
  steps.roots += performance.now() - t;
  t = performance.now();
  await store.write(new WriteBatch().append(commit.writes));
  steps.persist += performance.now() - t;
  root = commit.root;
}
const stepSeconds = (performance.now() - started) / 1000 - steps.persist / 1000;

for (const [s, dir] of opened) {
  await s.close();
  rmSync(dir, {recursive: true, force: true});
}

const n = BLOCKS * PER_BLOCK;
const rate = (count, seconds) => Math.round(count / seconds).toLocaleString("en-US");
const perBlock = (ms) => `${(ms / BLOCKS).toFixed(1)} ms`;
print(`secp256k1: ${secp256k1Backend}; ${BLOCKS} blocks × ${PER_BLOCK} transfers, ${SENDERS} senders, new recipients`);
print(`sender recovery (decode + recover):     ${rate(n, recoverySeconds)} tx/s`);
print(`import path (decode, execute, persist): ${rate(n, importSeconds)} transfers/s`);
print(
  `  per block: decode ${perBlock(phases.decode)}, execute ${perBlock(phases.execute)}, persist ${perBlock(phases.persist)}`,
);
print(`execution alone (senders recovered):    ${rate(n, stepSeconds)} transfers/s`);
print(
  `  per block: ${Object.entries(steps)
    .map(([k, v]) => `${k} ${perBlock(v)}`)
    .join(", ")}`,
);
