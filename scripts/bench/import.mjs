// Block import throughput: builds a chain of value transfers and one of ERC-20 transfers with the
// test chain builder, then imports each, from raw block bytes, into a fresh LevelDB data directory
// through full validation. Prints blocks/s, transactions/s, Mgas/s and peak RSS next to the rate of
// sender recovery alone (decode + secp256k1 recovery of the same transactions), measured in the
// same run: the floor of this work. The chain is built in this process and imported in a fresh
// child process, so the import's time and peak RSS are its own (both in chainFixture.mjs). Each chain is imported twice in the same run, one block at a time as gossip does and as a
// pipeline (`recoverAhead`: senders recovered in a worker thread ahead of execution, as `xchain db
// import` does), with the CPU time of each (all threads) beside the wall time, and the load average;
// and one block at a time through the worker, as a lone gossiped block would go.
// Needs a build (`npm run build`).
//
//   node scripts/bench/import.mjs [blocks=1000] [txsPerBlock=100] [transfer|erc20|both=both]
import {mkdtempSync, rmSync} from "node:fs";
import {loadavg, tmpdir} from "node:os";
import {join} from "node:path";
import {SenderRecovery} from "@xchain/chain";
import {Block} from "@xchain/primitives";
import {secp256k1Backend} from "@xchain/utils";
import {buildChain, chainId, chainspec, mainThreadCpuSeconds, measureImport, writeChain} from "./chainFixture.mjs";

const blockCount = Number(process.argv[2] ?? 1000);
const txsPerBlock = Number(process.argv[3] ?? 100);
const which = process.argv[4] ?? "both";

/** Decode + sender recovery of every measured transaction, from the block bytes: the floor. */
function recoveryRate(encoded, setup) {
  const start = process.hrtime.bigint();
  let count = 0;
  for (const bytes of encoded.slice(setup)) {
    const block = Block.decode(bytes, {rules: chainspec, chainId});
    for (const tx of block.transactions.slice(0, -1)) {
      tx.sender();
      count++;
    }
  }
  return count / (Number(process.hrtime.bigint() - start) / 1e9);
}

/**
 * One block at a time through the sender-recovery worker, as a lone gossiped block would go: the
 * round trip's wall time and this thread's CPU time per block, next to recovering on this thread
 * (ms a block). Says whether a lone block gains from the worker (docs/performance.md §3).
 */
async function singleBlockRecovery(encoded, setup) {
  const blocks = encoded.slice(setup, setup + 100);
  const decodeAll = () => blocks.map((bytes) => Block.decode(bytes, {rules: chainspec, chainId}));
  const recovery = new SenderRecovery();
  try {
    await recovery.recover(decodeAll()[0].transactions); // the worker started
    const viaWorker = decodeAll();
    const wallStart = process.hrtime.bigint();
    const cpuStart = mainThreadCpuSeconds();
    for (const block of viaWorker) await recovery.recover(block.transactions);
    const workerCpu = mainThreadCpuSeconds() - cpuStart;
    const workerWall = Number(process.hrtime.bigint() - wallStart) / 1e9;
    const here = decodeAll();
    const hereStart = mainThreadCpuSeconds();
    for (const block of here) for (const tx of block.transactions) tx.sender();
    const hereCpu = mainThreadCpuSeconds() - hereStart;
    const ms = (seconds) => ((seconds / blocks.length) * 1000).toFixed(2);
    return `round trip ${ms(workerWall)} ms, this thread's CPU ${ms(workerCpu)} ms; recovered on this thread ${ms(hereCpu)} ms`;
  } finally {
    await recovery.close();
  }
}

/** CPU seconds over `txs` transactions, in µs a transaction ("–" when not measured). */
function perTx(seconds, txs) {
  return seconds === null ? "–" : ((seconds / txs) * 1e6).toFixed(0);
}

console.log(
  `secp256k1 backend: ${secp256k1Backend}; ${blockCount} blocks x ${txsPerBlock} transactions; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
const workDir = mkdtempSync(join(tmpdir(), "xchain-bench-import-"));
try {
  for (const kind of which === "both" ? ["transfer", "erc20"] : [which]) {
    const buildStart = Date.now();
    const {encoded, setup} = await buildChain({kind, blockCount, txsPerBlock});
    console.log(`\n[${kind}] built ${encoded.length} blocks in ${((Date.now() - buildStart) / 1000).toFixed(1)} s`);
    const file = join(workDir, `${kind}.txt`);
    writeChain(file, encoded);
    const recovery = recoveryRate(encoded, setup);
    console.log(`[${kind}] sender recovery: ${Math.round(recovery)} tx/s (decode + recover alone)`);
    console.log(`[${kind}] one block through the worker: ${await singleBlockRecovery(encoded, setup)}`);
    const rates = {};
    for (const pipeline of [false, true]) {
      const label = pipeline ? "pipeline" : "one by one";
      const r = measureImport(file, setup, {pipeline});
      const txRate = r.txs / r.seconds;
      rates[label] = txRate;
      console.log(
        `[${kind}] import, ${label.padEnd(10)}: ${(r.blocks / r.seconds).toFixed(1)} blocks/s, ${Math.round(txRate)} tx/s, ${(r.gas / 1e6 / r.seconds).toFixed(1)} Mgas/s (${r.seconds.toFixed(1)} s; CPU ${perTx(r.cpuSeconds, r.txs)} µs/tx, main thread ${perTx(r.mainThreadCpuSeconds, r.txs)} µs/tx); import / recovery = ${(txRate / recovery).toFixed(2)}; peak RSS ${r.peakRssMb} MB; load ${loadavg()[0].toFixed(1)}`,
      );
    }
    console.log(`[${kind}] pipeline / one by one: ${(rates.pipeline / rates["one by one"]).toFixed(2)}`);
  }
} finally {
  rmSync(workDir, {recursive: true, force: true});
}
