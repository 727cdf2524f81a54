// evm_snapshot + evm_revert at 100,000 accounts (target: 1 ms or less, docs/rpc.md §4.10), next to an
// empty state in the same run: a custom network (regtest's rules) whose genesis holds `accounts`
// funded accounts, the built CLI over keep-alive HTTP on loopback. (anvil is left out: its snapshots
// copy the state, and with 100,000 accounts and a block a second it grew past 10 GiB.) Each round takes a
// snapshot, edits a balance (anvil_setBalance), mines a block ("block" rounds; "edit" rounds do
// not), then reverts: the figure is the time of the snapshot and revert calls alone, median and p90
// over the rounds. The same rounds run in process too (Chain on a MemoryStore, the miner's chain
// controls called directly): the controls' own cost, without HTTP and the node's background work
// (the template and pending block rebuilt after each head move or edit).
//
//   node scripts/bench/snapshot.mjs [accounts=100000] [rounds=200]
import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {Chain, defaultChainOptions} from "@xchain/chain";
import {getChainspec, regtestGenesis} from "@xchain/chainspec";
import {MemoryStore} from "@xchain/db";
import {BlockExecutor} from "@xchain/execution";
import {defaultMinerOptions, Miner} from "@xchain/miner";
import {defaultStateOptions, StateDatabase} from "@xchain/state";
import {defaultTxPoolOptions, TxPool} from "@xchain/txpool";
import {bigIntToFixedBytes, hexToBytes} from "@xchain/utils";
import {localNodeArgs, startNode, stopNode} from "./nodeProcess.mjs";
import {call, keepAliveAgent} from "./rpc/loadGenerator.mjs";

const [accounts, rounds] = [100_000, 200].map((d, i) => Number(process.argv[2 + i] ?? d));
const addressOf = (n) => `0x${(0x1000 + n).toString(16).padStart(40, "0")}`;
const BALANCE = "0xde0b6b3a7640000";

/** The median and p90 of `samples` (ms), as text. */
function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(3)} ms, p90 ${at(0.9).toFixed(3)} ms`;
}

/** `rounds` of snapshot, edit, mine (when `mine`), revert; the snapshot and revert calls timed. */
async function measureRounds(url, mine) {
  const agent = keepAliveAgent(1);
  const samples = [];
  for (let i = 0; i < rounds + 10; i++) {
    const t0 = performance.now();
    const id = await call(agent, url, "evm_snapshot");
    const t1 = performance.now();
    await call(agent, url, "anvil_setBalance", [addressOf(i % accounts), "0x1"]);
    if (mine) await call(agent, url, "evm_mine");
    const t2 = performance.now();
    const reverted = await call(agent, url, "evm_revert", [id]);
    const t3 = performance.now();
    if (reverted !== true) throw new Error(`evm_revert(${id}) answered ${reverted}`);
    // The first rounds warm the connection and the code paths.
    if (i >= 10) samples.push(t1 - t0 + (t3 - t2));
  }
  agent.destroy();
  return samples;
}

/** An xchain node on a custom network whose genesis funds `count` accounts besides the usual one. */
async function xchainWith(count) {
  const dir = mkdtempSync(join(tmpdir(), "xchain-bench-snapshot-"));
  const alloc = {"0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826": {balance: "1000000000000000000000"}};
  for (let i = 0; i < count; i++) alloc[addressOf(i)] = {balance: BALANCE};
  const genesis = {
    config: {chainId: 99},
    difficulty: "0x01",
    gasLimit: "0x989680",
    timestamp: "0x0",
    extraData: "0x",
    minimumGasPrice: "0",
  };
  writeFileSync(join(dir, "genesis.json"), JSON.stringify({...genesis, coinbase: addressOf(0), alloc}));
  const t = performance.now();
  const node = await startNode(`xchain (${count} accounts)`, [
    ...localNodeArgs(join(dir, "data")),
    ...["--network", "custom", "--genesis-file", join(dir, "genesis.json"), "--miner.blockTimeMs", "0"],
  ]);
  process.stderr.write(`xchain with ${count} accounts ready in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  return {node, stop: () => stopNode(node).then(() => rmSync(dir, {recursive: true, force: true}))};
}

for (const count of [0, accounts]) {
  const {node, stop} = await xchainWith(count);
  try {
    for (const mine of [false, true]) {
      const samples = await measureRounds(node.http, mine);
      console.log(
        `xchain, ${count} accounts, ${mine ? "block" : "edit"} rounds: snapshot + revert ${summary(samples)}`,
      );
    }
  } finally {
    await stop();
  }
}

/** The same rounds in process: a regtest chain whose genesis funds `count` accounts, its miner's chain controls. */
async function inProcess(count) {
  const chainspec = getChainspec("regtest");
  const funded = Array.from({length: count}, (_, i) => ({address: hexToBytes(addressOf(i).slice(2)), balance: 1n}));
  const genesis = {header: regtestGenesis.header, alloc: [...regtestGenesis.alloc, ...funded]};
  const store = new MemoryStore();
  const stateOptions = {...defaultStateOptions, recordPreimages: true};
  const state = new StateDatabase(stateOptions, {store});
  const chain = await Chain.open(defaultChainOptions, {store, chainspec, genesis, state});
  const txpool = new TxPool(defaultTxPoolOptions, {chainspec, chain});
  const assembler = new BlockExecutor({}, {chainspec, state: new StateDatabase(stateOptions, {store})});
  const modules = {chain, txpool, chainspec, assembler, pendingState: state, stateDumps: state};
  const miner = new Miner({...defaultMinerOptions(chainspec), enabled: false}, modules);
  const edited = bigIntToFixedBytes(0xabcn, 20);
  for (const mine of [false, true]) {
    const samples = [];
    for (let i = 0; i < rounds + 10; i++) {
      const t0 = performance.now();
      const id = miner.devControls().chain.snapshot();
      const t1 = performance.now();
      await chain.editHeadState((s) => s.setBalance(edited, BigInt(i + 1)));
      if (mine) await miner.mineBlock();
      const t2 = performance.now();
      await miner.devControls().chain.revert(id);
      if (i >= 10) samples.push(t1 - t0 + (performance.now() - t2));
    }
    console.log(
      `in process, ${count} accounts, ${mine ? "block" : "edit"} rounds: snapshot + revert ${summary(samples)}`,
    );
  }
  await miner.close();
  await txpool.close();
}

for (const count of [0, accounts]) await inProcess(count);
