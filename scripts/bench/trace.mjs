// Tracing cost against execution: `trace_block` of blocks of 100 ERC-20 transfers next to the
// import time of the same blocks (measured in the same run by chainFixture.mjs, into the node's
// data directory); `debug_traceTransaction` of a ~1M-gas transaction with the struct logger and
// with callTracer next to a plain re-execution of the same message (`eth_call` at its parent
// block); `trace_filter` over 2,000 blocks. Every trace is the first of its block (the node keeps
// a small cache of block traces). Needs a build (`npm run build`).
//
//   node scripts/bench/trace.mjs [erc20Blocks=10] [filterBlocks=2000]
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {compileSolidity} from "@xchain/test-utils";
import {bytesToPrefixedHex} from "@xchain/utils";
import {buildChain, measureImport, writeChain} from "./chainFixture.mjs";
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

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(fn) {
  const start = performance.now();
  const result = await fn();
  return {ms: performance.now() - start, result};
}

/** A node on a data directory whose chain was imported by measureImport; mining only on demand. */
async function nodeOn(dataDir) {
  return startNode("xchain", [
    "--datadir",
    dataDir,
    "--rpc.ws.enabled",
    "false",
    "--p2p.host",
    "127.0.0.1",
    "--p2p.port",
    "0",
    "--miner.blockTimeMs",
    "0",
    "--rpc.requestTimeoutMs",
    "120000",
    "--log.level",
    "warn",
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
    await traceOneMillionGas(node);
  } finally {
    await stopNode(node);
  }
}

async function traceOneMillionGas(node) {
  const [from] = await call(agent, node.http, "eth_accounts");
  const {Burner} = compileSolidity(BURNER);
  const send = async (tx) => {
    const hash = await call(agent, node.http, "eth_sendTransaction", [{from, gasPrice: "0x0", ...tx}]);
    await call(agent, node.http, "evm_mine");
    return call(agent, node.http, "eth_getTransactionReceipt", [hash]);
  };
  const deployed = await send({data: bytesToPrefixedHex(Burner.bytecode), gas: "0x100000"});
  const data = bytesToPrefixedHex(Burner.selectors["burn(uint256)"]) + (120).toString(16).padStart(64, "0");
  const receipt = await send({to: deployed.contractAddress, data, gas: "0x1e8480"});
  const parent = `0x${(Number(receipt.blockNumber) - 1).toString(16)}`;
  const hash = receipt.transactionHash;
  const message = {from, to: deployed.contractAddress, data, gas: "0x1e8480"};
  /** The median of five runs, one at a time. */
  const rounds = async (fn) => {
    const times = [];
    for (let i = 0; i < 5; i++) times.push((await timed(fn)).ms);
    return median(times);
  };
  const plain = await rounds(() => call(agent, node.http, "eth_call", [message, parent]));
  const callTracer = await rounds(() =>
    call(agent, node.http, "debug_traceTransaction", [hash, {tracer: "callTracer"}]),
  );
  const structLogger = await rounds(() =>
    call(agent, node.http, "debug_traceTransaction", [hash, {disableMemory: true, disableStorage: true}]),
  );
  const gas = Number(receipt.gasUsed);
  console.log(
    `debug_traceTransaction of a ${(gas / 1e6).toFixed(2)}M-gas transaction: eth_call of the same message ` +
      `${plain.toFixed(1)} ms; callTracer ${callTracer.toFixed(1)} ms (${(callTracer / plain).toFixed(2)}x, ` +
      `target <= 1.5x); struct logger without memory/storage ${structLogger.toFixed(1)} ms ` +
      `(${(structLogger / plain).toFixed(2)}x)`,
  );
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
  await traceBlocks(await importedChain(workDir, "erc20", "erc20", erc20Blocks, TX_PER_BLOCK));
  await traceFilter(await importedChain(workDir, "filter", "transfer", filterBlocks, 1));
} finally {
  agent.destroy();
  rmSync(workDir, {recursive: true, force: true});
}
