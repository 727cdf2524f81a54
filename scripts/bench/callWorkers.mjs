// eth_call on worker threads (rpc.callWorkers): distinct ERC-20 balanceOf calls (a different
// holder each, as a cache would not help), `inFlight` at once, through BlockExecutor.call in-process
// (0 workers) and through execution's CallService with 1 and 2 workers, on a LevelStore in a temporary
// directory. Prints calls/s per worker count and the process's CPU per call (every thread: the figure
// a loaded machine distorts least).
// Build first: npm run build    Run: node scripts/bench/callWorkers.mjs [calls=20000] [inFlight=32]
import {mkdtempSync, rmSync} from "node:fs";
import {availableParallelism, tmpdir} from "node:os";
import {join} from "node:path";
import {performance} from "node:perf_hooks";
import {getChainspec} from "@xchain/chainspec";
import {LevelStore, WriteBatch} from "@xchain/db";
import {BlockExecutor, CallService, createChainCommon} from "@xchain/execution";
import {buildGenesisState, defaultStateOptions, StateDatabase} from "@xchain/state";
import {concatBytes, keccak256, noopLogger} from "@xchain/utils";
import {CALL_BLOCK, CALL_PARENT_HASH, NO_ANCESTORS, tokenRuntime, word} from "./callFixture.mjs";

const CALLS = Number(process.argv[2] ?? 20_000);
const IN_FLIGHT = Number(process.argv[3] ?? 32);
const HOLDERS = 1_000;
const chainspec = getChainspec("regtest");
const token = new Uint8Array(20).fill(0x22);
const from = new Uint8Array(20).fill(0x11);
const block = CALL_BLOCK;
const chain = NO_ANCESTORS;
const holder = (i) => word(Uint8Array.of(0x33, i >> 8, i & 0xff)).subarray(12);

const dir = mkdtempSync(join(tmpdir(), "xchain-callworkers-"));
const dbPath = join(dir, "db");
const store = await LevelStore.open(dbPath, {threads: "share"});
const state = new StateDatabase({...defaultStateOptions, nodeCacheBytes: 64 * 1024 * 1024}, {store});
const local = new BlockExecutor({}, {chainspec, state});
const {Token, code} = await tokenRuntime(local, from);
const storage = Array.from({length: HOLDERS}, (_, i) => [
  keccak256(concatBytes(word(holder(i)), word(new Uint8Array(0)))),
  word(Uint8Array.of(i & 0xff, 1)),
]);
const genesis = await buildGenesisState(state, [[token, {balance: 0n, code, storage}]], createChainCommon(chainspec));
await store.write(new WriteBatch().append(genesis.writes));
const selector = Token.selectors["balanceOf(address)"];

async function measure(name, executor) {
  let next = 0;
  const run = async () => {
    while (next < CALLS) {
      const i = next++;
      const data = concatBytes(selector, word(holder(i % HOLDERS)));
      const r = await executor.call({
        block,
        chain,
        // What rpc gives every call; without it the service runs the call in-process.
        parentHash: CALL_PARENT_HASH,
        stateRoot: genesis.root,
        from,
        to: token,
        data,
        gasLimit: 50_000_000n,
      });
      if (!r.status || r.returnValue[31] !== 1) throw new Error("balanceOf returned the wrong value");
    }
  };
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(Array.from({length: IN_FLIGHT}, run));
  const seconds = (performance.now() - started) / 1000;
  const {user, system} = process.cpuUsage(cpu);
  const perCall = (user + system) / CALLS;
  console.log(
    `${name.padEnd(12)} ${(CALLS / seconds).toFixed(0).padStart(7)} calls/s ${perCall.toFixed(1).padStart(6)} µs CPU/call`,
  );
}

console.log(`${availableParallelism()} cores, ${CALLS} distinct balanceOf calls, ${IN_FLIGHT} in flight`);
await measure("warm-up", local);
await measure("0 workers", local);
for (const workers of [1, 2]) {
  const pool = new CallService(
    {
      workers,
      workerData: {
        dbPath,
        chainParams: chainspec.params,
        state: {...defaultStateOptions, nodeCacheBytes: 64 * 1024 * 1024},
      },
    },
    {local, state, logger: noopLogger},
  );
  await pool.ready();
  await measure(`warm-up`, pool);
  await measure(`${workers} worker${workers > 1 ? "s" : ""}`, pool);
  await pool.close();
}
await store.close();
rmSync(dir, {recursive: true, force: true});
