// eth_call's execution floor: an ERC-20 `balanceOf` through BlockExecutor.call in-process (no
// JSON-RPC), on the real StateDatabase (MemoryStore) with the token in the genesis state. Prints
// microseconds per call, the same for a call to an account without code (the EVM's fixed cost), and
// balanceOf of another holder each call (a storage slot not read before: what distinct calls pay).
// Build first: npm run build    Run: node scripts/bench/call.mjs [calls=20000]
import {performance} from "node:perf_hooks";
import {getChainspec} from "@xchain/chainspec";
import {MemoryStore, WriteBatch} from "@xchain/db";
import {BlockExecutor, createChainCommon} from "@xchain/execution";
import {buildGenesisState, defaultStateOptions, StateDatabase} from "@xchain/state";
import {bigIntToBytes, concatBytes, keccak256} from "@xchain/utils";
import {CALL_BLOCK, NO_ANCESTORS, tokenRuntime, word} from "./callFixture.mjs";

const CALLS = Number(process.argv[2] ?? 20_000);
const chainspec = getChainspec("regtest");
const holder = new Uint8Array(20).fill(0x11);
const token = new Uint8Array(20).fill(0x22);
const block = CALL_BLOCK;
const chain = NO_ANCESTORS;

const store = new MemoryStore();
const state = new StateDatabase(defaultStateOptions, {store});
const executor = new BlockExecutor({}, {chainspec, state});
const {Token, code} = await tokenRuntime(executor, holder);
// balanceOf is mapping slot 0: keccak256(holder ‖ 0).
const slot = keccak256(concatBytes(word(holder), word(new Uint8Array(0))));
const genesis = await buildGenesisState(
  state,
  [
    [holder, {balance: 10n ** 18n}],
    [token, {balance: 0n, code, storage: [[slot, word(Uint8Array.of(0x2a))]]}],
  ],
  createChainCommon(chainspec),
);
await store.write(new WriteBatch().append(genesis.writes));

/** Runs `input` (or `input(i)` for the i-th call) CALLS times after a warm-up; prints µs per call. */
async function measure(name, input, check) {
  let i = 0;
  const run = () =>
    executor.call({
      block,
      chain,
      stateRoot: genesis.root,
      from: holder,
      gasLimit: 50_000_000n,
      ...(typeof input === "function" ? input(i++) : input),
    });
  check(await run());
  for (let i = 0; i < 2_000; i++) await run();
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await run();
  const micros = ((performance.now() - started) * 1000) / CALLS;
  const {user, system} = process.cpuUsage(cpu);
  console.log(
    `${name.padEnd(24)} ${micros.toFixed(1).padStart(7)} µs/call  ${(1e6 / micros).toFixed(0).padStart(7)} calls/s  ${((user + system) / CALLS).toFixed(1).padStart(7)} µs CPU/call`,
  );
}

await measure(
  "balanceOf (ERC-20)",
  {to: token, data: concatBytes(Token.selectors["balanceOf(address)"], word(holder))},
  (r) => {
    if (!r.status || r.returnValue[31] !== 0x2a) throw new Error("balanceOf returned the wrong value");
  },
);
await measure("call to a code-less account", {to: new Uint8Array(20).fill(0x33)}, (r) => {
  if (!r.status) throw new Error("plain call failed");
});
await measure(
  "balanceOf, another holder each call",
  (i) => ({to: token, data: concatBytes(Token.selectors["balanceOf(address)"], word(bigIntToBytes(BigInt(i) + 1n)))}),
  (r) => {
    if (!r.status) throw new Error("balanceOf failed");
  },
);
