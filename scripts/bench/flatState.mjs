// The flat state (docs/operations.md §13) against the trie on a large state in LevelDB: a genesis of
// `accounts` accounts and an ERC-20 token with `holders` holders; the flat state generated from it;
// then, with small caches (an 8 MiB trie-node cache; no reader cache for the reads, the default one
// for the calls, which keeps the token's account) and LevelDB reopened, `reads` distinct accounts,
// distinct holders' balance slots and eth_call balanceOf of distinct holders (in process,
// BlockExecutor.call), each through the trie and through the flat state (wall and CPU µs per read);
// and what following the head costs: the diff of a block of 100 transfers.
// Build first: npm run build    Run: node scripts/bench/flatState.mjs [accounts=100000] [holders=100000] [reads=5000]
import {mkdtempSync, rmSync} from "node:fs";
import {loadavg, tmpdir} from "node:os";
import {join} from "node:path";
import {performance} from "node:perf_hooks";
import {Account, Address} from "@ethereumjs/util";
import {getChainspec} from "@xchain/chainspec";
import {Bucket, LevelStore, WriteBatch} from "@xchain/db";
import {BlockExecutor, createChainCommon} from "@xchain/execution";
import {buildGenesisState, defaultStateOptions, StateDatabase} from "@xchain/state";
import {concatBytes, keccak256} from "@xchain/utils";
import {CALL_BLOCK, NO_ANCESTORS, tokenRuntime, word} from "./callFixture.mjs";

const [ACCOUNTS, HOLDERS, READS] = [100_000, 100_000, 5_000].map((d, i) => Number(process.argv[2 + i] ?? d));
const print = (line) => process.stdout.write(`${line}\n`);
const chainspec = getChainspec("regtest");
const common = createChainCommon(chainspec);
const token = new Uint8Array(20).fill(0x22);
const addressOf = (n) => {
  const bytes = new Uint8Array(20);
  new DataView(bytes.buffer).setUint32(16, n + 1);
  bytes[0] = 0xaa;
  return bytes;
};
const holderOf = (n) => {
  const bytes = addressOf(n);
  bytes[0] = 0xbb;
  return bytes;
};
// balanceOf is mapping slot 0: keccak256(holder ‖ 0).
const balanceSlot = (holder) => keccak256(concatBytes(word(holder), word(new Uint8Array(0))));
const small = {...defaultStateOptions, nodeCacheBytes: 8 * 1024 * 1024, readerCacheBytes: 0};

const dir = mkdtempSync(join(tmpdir(), "xchain-flat-bench-"));
let store = await LevelStore.open(dir);
let t = performance.now();
let root;
{
  const setup = new StateDatabase(defaultStateOptions, {store});
  const {code} = await tokenRuntime(new BlockExecutor({}, {chainspec, state: setup}), addressOf(0));
  const storage = Array.from({length: HOLDERS}, (_, i) => [
    balanceSlot(holderOf(i)),
    word(Uint8Array.of(1 + (i % 250))),
  ]);
  const alloc = Array.from({length: ACCOUNTS}, (_, i) => [addressOf(i), {balance: 10n ** 24n + BigInt(i)}]);
  alloc.push([token, {balance: 0n, code, storage}]);
  const genesis = await buildGenesisState(setup, alloc, common);
  await store.write(new WriteBatch().append(genesis.writes));
  print(`state: ${ACCOUNTS} accounts, a token with ${HOLDERS} holders, ${(performance.now() - t).toFixed(0)} ms`);
  root = genesis.root;
}

// Generation, in the chain's steps of 512 entries.
const generating = new StateDatabase(small, {store});
const writer = await generating.openFlatWriter();
writer.follow(root);
t = performance.now();
const cpu = process.cpuUsage();
let steps = 0;
for (;;) {
  const step = await writer.prepareStep(512);
  if (step === undefined) break;
  await store.write(new WriteBatch().append(writer.commitStep(step)));
  writer.applied(step);
  steps++;
}
const genCpu = process.cpuUsage(cpu);
print(
  `generation: ${steps} steps of 512 entries, ${((performance.now() - t) / 1000).toFixed(1)} s wall, ` +
    `${((genCpu.user + genCpu.system) / 1e6).toFixed(1)} s CPU (${((genCpu.user + genCpu.system) / steps / 1000).toFixed(2)} ms CPU a step)`,
);
await store.compact();
const mib = async (bucket) => ((await store.approximateBucketBytes(bucket)) / 2 ** 20).toFixed(1);
print(
  `disk (compacted): trie and code ${await mib(Bucket.stateTrie)} MiB, flat state ${await mib(Bucket.flatState)} MiB`,
);

/** µs of wall and of CPU per operation over `count` sequential runs of `op(i)`. */
async function measure(count, op) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) await op(i);
  const used = process.cpuUsage(cpu);
  return {wall: ((performance.now() - started) * 1000) / count, cpu: (used.user + used.system) / count};
}

const rows = [];
// Each round reads other accounts and holders than the rounds before (nothing read twice).
let next = 0;
for (const round of [1, 2]) {
  for (const flatState of [false, true]) {
    await store.close();
    store = await LevelStore.open(dir);
    const state = new StateDatabase({...small, flatState}, {store});
    const reader = await state.reader(root, common);
    const base = next;
    next += READS;
    const stride = Math.floor(ACCOUNTS / READS / 2) || 1;
    const holderStride = Math.floor(HOLDERS / READS / 2) || 1;
    const pick = (i, stride, count) => ((base + i) * stride * 7919) % count;
    const account = await measure(READS, (i) => reader.getAccount(addressOf(pick(i, stride, ACCOUNTS))));
    const slot = await measure(READS, (i) =>
      reader.getStorage(token, balanceSlot(holderOf(pick(i, holderStride, HOLDERS)))),
    );
    const callState = new StateDatabase(
      {...small, readerCacheBytes: defaultStateOptions.readerCacheBytes, flatState},
      {store},
    );
    const executor = new BlockExecutor({}, {chainspec, state: callState});
    const data = (holder) => concatBytes(Uint8Array.of(0x70, 0xa0, 0x82, 0x31), word(holder));
    const call = await measure(READS, (i) =>
      executor.call({
        block: CALL_BLOCK,
        chain: NO_ANCESTORS,
        stateRoot: root,
        from: addressOf(0),
        to: token,
        gasLimit: 1_000_000n,
        data: data(holderOf(pick(i + READS, holderStride, HOLDERS))),
      }),
    );
    const counts = [state.readCounts(), callState.readCounts()];
    rows.push({
      round,
      reads: flatState ? "flat" : "trie",
      account,
      slot,
      call,
      counts: {flat: counts[0].flat + counts[1].flat, trie: counts[0].trie + counts[1].trie},
    });
  }
}
const f = (m) => `${m.wall.toFixed(1).padStart(6)} µs (${m.cpu.toFixed(1).padStart(5)} CPU)`;
print(`\n${READS} distinct reads each, caches small (8 MiB trie nodes, no reader cache), LevelDB reopened:`);
print("round  reads  account read              storage read              eth_call balanceOf        flat/trie reads");
for (const r of rows) {
  print(
    `${String(r.round).padEnd(6)} ${r.reads.padEnd(6)} ${f(r.account)}  ${f(r.slot)}  ${f(r.call)}  ${r.counts.flat}/${r.counts.trie}`,
  );
}

// Following the head: blocks of 100 transfers between existing accounts, each diffed into the flat state.
{
  const state = new StateDatabase(defaultStateOptions, {store});
  const follower = await state.openFlatWriter();
  follower.follow(root);
  let diffMs = 0;
  let commitMs = 0;
  let diffCpu = 0;
  let commitCpu = 0;
  const BLOCKS = 20;
  for (let b = 0; b < BLOCKS; b++) {
    const started = performance.now();
    const startedCpu = process.cpuUsage();
    const session = await state.openSession(root, common);
    const sm = session.stateManager;
    await sm.checkpoint();
    for (let i = 0; i < 100; i++) {
      const to = new Address(addressOf(1 + (((b * 100 + i) * 37) % (ACCOUNTS - 1))));
      const recipient = await sm.getAccount(to);
      await sm.putAccount(to, new Account(recipient.nonce, recipient.balance + 1n));
    }
    await sm.commit();
    const commit = await session.commit();
    session.release();
    const diffed = performance.now();
    commitMs += diffed - started;
    const used = process.cpuUsage(startedCpu);
    commitCpu += (used.user + used.system) / 1000;
    const diffedCpu = process.cpuUsage();
    // The flat state was generated for `root` above: stored meta is complete there.
    const change = await follower.headChange(root, commit.root, commit.writes);
    diffMs += performance.now() - diffed;
    const diffUsed = process.cpuUsage(diffedCpu);
    diffCpu += (diffUsed.user + diffUsed.system) / 1000;
    await store.write(new WriteBatch().append(commit.writes).append(change.ops));
    follower.applied(change);
    root = commit.root;
  }
  print(
    `\nfollowing the head: a block of 100 transfers executed and committed in ${(commitMs / BLOCKS).toFixed(1)} ms ` +
      `(${(commitCpu / BLOCKS).toFixed(1)} ms CPU), its flat state diff ${(diffMs / BLOCKS).toFixed(2)} ms ` +
      `(${(diffCpu / BLOCKS).toFixed(2)} ms CPU; ${follower.status().phase})`,
  );
}
print(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (${process.version})`,
);
await store.close();
rmSync(dir, {recursive: true, force: true});
