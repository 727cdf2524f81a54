// State throughput: blocks of value transfers, each block a new session on the previous root,
// its writes persisted in one batch before the next block; then random reads through readers.
// Needs a build (`npm run build`).
//
//   node scripts/bench/state.mjs [accounts=10000] [blocks=100] [txPerBlock=100] [cacheMiB=64]
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {createCustomCommon, Mainnet} from "@ethereumjs/common";
import {Account, Address} from "@ethereumjs/util";
import {LevelStore, WriteBatch} from "@xchain/db";
import {buildGenesisState, defaultStateOptions, StateDatabase} from "@xchain/state";
import {keccak256} from "@xchain/utils";

const print = (line) => process.stdout.write(`${line}\n`);
const [accounts, blocks, txPerBlock, cacheMiB] = [10_000, 100, 100, 64].map((d, i) => Number(process.argv[2 + i] ?? d));
// The project's keccak-256 (hash-wasm), as the execution package's Common supplies it.
const common = createCustomCommon({chainId: 33}, Mainnet, {
  hardfork: "shanghai",
  eips: [1153, 5656],
  customCrypto: {keccak256},
});

let seed = 1;
const random = (n) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const addressOf = (n) => {
  const bytes = new Uint8Array(20);
  new DataView(bytes.buffer).setUint32(16, n + 1);
  bytes[0] = 0xaa;
  return bytes;
};

const dir = mkdtempSync(join(tmpdir(), "xchain-state-bench-"));
const store = await LevelStore.open(dir);
const state = new StateDatabase({...defaultStateOptions, nodeCacheBytes: cacheMiB * 1024 * 1024}, {store});

let t = performance.now();
const alloc = Array.from({length: accounts}, (_, i) => [addressOf(i), {balance: 10n ** 24n}]);
const genesis = await buildGenesisState(state, alloc, common);
await store.write(new WriteBatch().append(genesis.writes));
print(`genesis: ${accounts} accounts, ${genesis.writes.length} writes, ${(performance.now() - t).toFixed(0)} ms`);

let root = genesis.root;
let writes = 0;
let execMs = 0;
let flushMs = 0;
let commitMs = 0;
let persistMs = 0;
t = performance.now();
for (let b = 0; b < blocks; b++) {
  let s = performance.now();
  const session = await state.openSession(root, common);
  const sm = session.stateManager;
  await sm.checkpoint();
  for (let i = 0; i < txPerBlock; i++) {
    const from = new Address(addressOf(random(accounts)));
    const to = new Address(addressOf(random(accounts)));
    await sm.checkpoint();
    const sender = await sm.getAccount(from);
    await sm.putAccount(from, new Account(sender.nonce + 1n, sender.balance - 21_001n));
    const recipient = (await sm.getAccount(to)) ?? new Account();
    await sm.putAccount(to, new Account(recipient.nonce, recipient.balance + 1n));
    await sm.commit();
  }
  const e = performance.now();
  execMs += e - s;
  await sm.commit();
  const f = performance.now();
  flushMs += f - e;
  const commit = await session.commit();
  s = performance.now();
  commitMs += s - f;
  await store.write(new WriteBatch().append(commit.writes));
  persistMs += performance.now() - s;
  writes += commit.writes.length;
  root = commit.root;
}
const total = performance.now() - t;
const tx = blocks * txPerBlock;
print(
  `import: ${blocks} blocks × ${txPerBlock} transfers in ${total.toFixed(0)} ms = ${((tx / total) * 1000).toFixed(0)} transfers/s ` +
    `(execute ${execMs.toFixed(0)} ms, block checkpoint commit ${flushMs.toFixed(0)} ms, session commit ${commitMs.toFixed(0)} ms, persist ${persistMs.toFixed(0)} ms; ` +
    `${(writes / blocks).toFixed(0)} writes/block)`,
);
const {entries, bytes, hits, misses} = state.cacheStats();
print(`node cache: ${entries} entries, ${(bytes / 2 ** 20).toFixed(1)} MiB, ${hits} hits, ${misses} misses`);

const reads = 20_000;
t = performance.now();
const reader = await state.reader(root, common);
let sum = 0n;
for (let i = 0; i < reads; i++) sum += await reader.getBalance(addressOf(random(accounts)));
const readMs = performance.now() - t;
if (sum === 0n) throw new Error("no balance read");
print(`reads: ${reads} random getBalance in ${readMs.toFixed(0)} ms = ${((reads / readMs) * 1000).toFixed(0)}/s`);

await store.close();
rmSync(dir, {recursive: true, force: true});
