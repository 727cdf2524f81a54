// Tracing cost against execution: `trace_block` of blocks of 100 ERC-20 transfers next to the
// import time of the same blocks (measured in the same run by chainFixture.mjs, into the node's
// data directory; every trace is the first of its block, since the node caches block traces);
// `debug_traceTransaction` of a ~1M-gas transaction with callTracer and with the struct logger
// next to a plain re-execution of the same transaction (the same replay without a tracer,
// `BlockExecutor.trace` with no callbacks, plus an RPC round trip), in one process over an
// in-memory store; `trace_filter` over 2,000 blocks. Needs a build (`npm run build`).
//
//   node scripts/bench/trace.mjs [erc20Blocks=10] [filterBlocks=2000]
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {Chain, defaultChainOptions} from "@xchain/chain";
import {regtestGenesis} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {MemoryStore} from "@xchain/db";
import {BlockExecutor, blockContextOf} from "@xchain/execution";
import {Transaction} from "@xchain/primitives";
import {defaultRpcOptions, RpcServer} from "@xchain/rpc";
import {defaultStateOptions, StateDatabase} from "@xchain/state";
import {ChainBuilder, compileSolidity, cowAccounts, freePortFlags} from "@xchain/test-utils";
import {defaultTxPoolOptions, TxPool} from "@xchain/txpool";
import {bigIntToFixedBytes, bytesToPrefixedHex, concatBytes, keccak256} from "@xchain/utils";
import {buildChain, chainspec, measureImport, writeChain} from "./chainFixture.mjs";
import {startNode, stopNode} from "./nodeProcess.mjs";
import {call, keepAliveAgent} from "./rpc/loadGenerator.mjs";

const erc20Blocks = Number(process.argv[2] ?? 10);
const filterBlocks = Number(process.argv[3] ?? 2000);
const TX_PER_BLOCK = 100;
const agent = keepAliveAgent(1);

const BURNER = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Burner {
    mapping(uint256 => uint256) public slots;
    function burn(uint256 rounds) external {
        for (uint256 i = 0; i < rounds; i++) slots[i % 16] += i;
    }
}`;

/** A regtest chain over an in-memory store with the JSON-RPC server on a free port. */
async function inProcessNode() {
  const store = new MemoryStore();
  const state = new StateDatabase(defaultStateOptions, {store});
  const chain = await Chain.open(defaultChainOptions, {store, chainspec, genesis: regtestGenesis, state});
  const executor = new BlockExecutor({}, {chainspec, state});
  const txpool = new TxPool(defaultTxPoolOptions, {chainspec, chain});
  const port = {...defaultRpcOptions.http, port: 0};
  const server = await RpcServer.start(
    {...defaultRpcOptions, http: port, ws: {...defaultRpcOptions.ws, enabled: false}},
    {chainspec, chain, txpool, executor, clientVersion: "xchain/bench"},
  );
  const builder = await ChainBuilder.create({
    chainspec,
    genesis: regtestGenesis,
    difficulty: (h, p) => calculateDifficulty(h, p, chainspec),
  });
  const mine = async (transactions) => {
    const block = await builder.buildBlock({transactions});
    await chain.importBlock(block.encode());
    return block;
  };
  return {chain, executor, server, mine, url: `http://127.0.0.1:${server.httpPort}`};
}

async function traceOneMillionGas() {
  const node = await inProcessNode();
  try {
    const cow = cowAccounts()[0];
    const sign = (nonce, values) =>
      Transaction.sign(
        {gasPrice: 0n, value: 0n, data: new Uint8Array(), nonce, ...values},
        cow.privateKey,
        chainspec.params.chainId,
      );
    const {Burner} = compileSolidity(BURNER);
    await node.mine([sign(0n, {gasLimit: 1_000_000n, data: Burner.bytecode})]);
    const burner = keccak256(concatBytes(Uint8Array.of(0xd6, 0x94), cow.address, Uint8Array.of(0x80))).subarray(12);
    const data = concatBytes(Burner.selectors["burn(uint256)"], bigIntToFixedBytes(120n, 32));
    const block = await node.mine([sign(1n, {gasLimit: 2_000_000n, to: burner, data})]);
    const parent = await node.chain.getHeader(block.header.parentHash);
    const input = {
      block: blockContextOf(block.header),
      transactions: block.transactions,
      parentStateRoot: parent.stateRoot,
      chain: {blockHash: async () => undefined, remasc: undefined},
    };
    const [outcome] = await node.executor.trace(input, {}, {only: 0});
    const hash = bytesToPrefixedHex(block.transactions[0].hash());
    const rpc = (method, params) => call(agent, node.url, method, params);
    const roundTrip = await rounds(() => rpc("eth_blockNumber", []));
    const plain = (await rounds(() => node.executor.trace(input, {}, {only: 0}))) + roundTrip;
    const callTracer = await rounds(() => rpc("debug_traceTransaction", [hash, {tracer: "callTracer"}]));
    const structLogger = await rounds(() =>
      rpc("debug_traceTransaction", [hash, {disableMemory: true, disableStorage: true}]),
    );
    console.log(
      `debug_traceTransaction of a ${(Number(outcome.gasUsed) / 1e6).toFixed(2)}M-gas transaction: plain ` +
        `re-execution ${plain.toFixed(1)} ms (with an RPC round trip of ${roundTrip.toFixed(1)} ms); callTracer ` +
        `${callTracer.toFixed(1)} ms (${(callTracer / plain).toFixed(2)}x, target <= 1.5x); struct logger ` +
        `without memory and storage ${structLogger.toFixed(1)} ms (${(structLogger / plain).toFixed(2)}x)`,
    );
  } finally {
    await node.server.close();
  }
}

/** The median of nine runs, one at a time. */
async function rounds(fn) {
  const times = [];
  for (let i = 0; i < 9; i++) times.push((await timed(fn)).ms);
  return median(times);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(fn) {
  const start = performance.now();
  const result = await fn();
  return {ms: performance.now() - start, result};
}

/** A node on a data directory whose chain was imported by measureImport; mining only on demand. */
async function nodeOn(dataDir) {
  return startNode("xchain", [
    ...freePortFlags(dataDir),
    "--miner.blockTimeMs",
    "0",
    "--rpc.requestTimeoutMs",
    "120000",
  ]);
}

/** Builds and imports a chain; the import's ms per measured block and the data directory. */
async function importedChain(workDir, name, kind, blockCount, txsPerBlock) {
  const {encoded, setup} = await buildChain({kind, blockCount, txsPerBlock});
  const file = join(workDir, `${name}.txt`);
  writeChain(file, encoded);
  const dataDir = join(workDir, name);
  const imported = measureImport(file, setup, {dbDir: join(dataDir, "db")});
  return {dataDir, setup, blocks: blockCount, importMsPerBlock: (imported.seconds * 1000) / blockCount};
}

async function traceBlocks(chain) {
  const node = await nodeOn(chain.dataDir);
  try {
    const times = [];
    let traces = 0;
    for (let n = chain.setup + 1; n <= chain.setup + chain.blocks; n++) {
      const {ms, result} = await timed(() => call(agent, node.http, "trace_block", [`0x${n.toString(16)}`]));
      times.push(ms);
      traces += result.length;
    }
    const traceMs = median(times);
    console.log(
      `trace_block, ${TX_PER_BLOCK} ERC-20 transfers: ${traceMs.toFixed(1)} ms (median of ${times.length}, ` +
        `${traces} traces) vs import ${chain.importMsPerBlock.toFixed(1)} ms/block: ` +
        `${(traceMs / chain.importMsPerBlock).toFixed(2)}x (target <= 2x)`,
    );
  } finally {
    await stopNode(node);
  }
}

async function traceFilter(chain) {
  const node = await nodeOn(chain.dataDir);
  try {
    const to = `0x${(chain.setup + chain.blocks).toString(16)}`;
    const {ms, result} = await timed(() =>
      call(agent, node.http, "trace_filter", [{fromBlock: `0x${(chain.setup + 1).toString(16)}`, toBlock: to}]),
    );
    console.log(
      `trace_filter over ${chain.blocks} blocks (one transfer each): ${ms.toFixed(0)} ms, ${result.length} traces ` +
        `(${((ms * 1000) / chain.blocks).toFixed(0)} µs/block; import ${(chain.importMsPerBlock * 1000).toFixed(0)} µs/block)`,
    );
  } finally {
    await stopNode(node);
  }
}

const workDir = mkdtempSync(join(tmpdir(), "xchain-bench-trace-"));
try {
  await traceOneMillionGas();
  await traceBlocks(await importedChain(workDir, "erc20", "erc20", erc20Blocks, TX_PER_BLOCK));
  await traceFilter(await importedChain(workDir, "filter", "transfer", filterBlocks, 1));
} finally {
  agent.destroy();
  rmSync(workDir, {recursive: true, force: true});
}
