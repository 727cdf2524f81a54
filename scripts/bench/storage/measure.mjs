// One measured import of the storage benchmark (scripts/bench/storage.mjs), run as a child process
// so that its time and memory are its own: imports the chain file (blockFile.mjs) through the
// chain's real import path (`Chain.open` + `importBlock`, full validation, one batch a block) into
// a fresh LevelDB store in archive or pruned mode, timing every block, and samples the disk.
//
//   node measure.mjs '<json: {file, setup, blocks, dbDir, mode, retain, sampleEvery, paceMs, out}>'
//
// Writes its figures as JSON to `out`: per-block import times summarised (with and without a
// collection running), disk samples every `sampleEvery` blocks, and, in pruned mode, the stored
// state against the live state after every collection.
import {readdirSync, statSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {setTimeout as sleep} from "node:timers/promises";
import {ImportResultKind} from "@xchain/chain";
import {regtestGenesis} from "@xchain/chainspec";
import {Bucket, LevelStore} from "@xchain/db";
import {verifyState} from "@xchain/state";
import {chainspec, txCountOf} from "../chainFixture.mjs";
import {readBlocks} from "./blockFile.mjs";
import {blockTimes, collecting, slowest} from "./blockTimes.mjs";
import {openChain} from "./retention.mjs";

/** The bytes of the files under `dir` (the data directory's footprint on disk). */
export function diskBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    const path = join(dir, entry.name);
    // A compaction may delete a table between the listing and its stat: it no longer counts.
    total += entry.isDirectory() ? diskBytes(path) : (statSync(path, {throwIfNoEntry: false})?.size ?? 0);
  }
  return total;
}

/** The state bucket's entries and their bytes (keys and values): the state as stored, before LevelDB's own overhead. */
async function storedState(store) {
  let entries = 0;
  let bytes = 0;
  for await (const [key, value] of store.entries(Bucket.stateTrie)) {
    entries++;
    bytes += key.length + value.length;
  }
  return {entries, bytes};
}

/** The state the head's root reaches (nodes and code, keys of 32 or 33 bytes counted as stored). */
async function liveState(store, root) {
  const walk = await verifyState(store, root);
  if (walk.damage) throw new Error(`the head's state is damaged: ${walk.damage.problem} ${walk.damage.key}`);
  return {
    entries: walk.nodes + walk.codes,
    bytes: walk.bytes + 32 * walk.nodes + 33 * walk.codes,
    accounts: walk.accounts,
  };
}

/**
 * LevelDB's estimate of the state bucket's bytes in its table files (compressed, deleted entries
 * not yet compacted away included): `LevelStore.approximateBucketBytes`, where the build has it
 * (`xchain db inspect`'s read); undefined otherwise.
 */
function stateFileBytes(store) {
  return typeof store.approximateBucketBytes === "function"
    ? store.approximateBucketBytes(Bucket.stateTrie)
    : undefined;
}

/** The state on disk against the live state, measured while imports wait. */
async function stateRatio(store, chain) {
  const start = performance.now();
  const stored = await storedState(store);
  const live = await liveState(store, chain.head().header.stateRoot);
  return {
    block: chain.head().number,
    stateFileBytes: await stateFileBytes(store),
    storedBytes: stored.bytes,
    storedEntries: stored.entries,
    liveBytes: live.bytes,
    liveEntries: live.entries,
    accounts: live.accounts,
    ratio: stored.bytes / live.bytes,
    measureMs: Math.round(performance.now() - start),
  };
}

function quantile(sorted, q) {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Rate and import-time distribution of the blocks whose flag is `flag`. */
function summary(times, flags, flag, txsPerBlock) {
  const selected = [];
  for (let i = 0; i < times.length; i++) if (flags[i] === flag) selected.push(times[i]);
  const sorted = Float64Array.from(selected).sort();
  const seconds = selected.reduce((s, t) => s + t, 0) / 1000;
  return {
    blocks: selected.length,
    seconds,
    blocksPerSecond: selected.length / seconds,
    txPerSecond: (selected.length * txsPerBlock) / seconds,
    p50Ms: quantile(sorted, 0.5),
    p99Ms: quantile(sorted, 0.99),
    maxMs: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1],
  };
}

async function measure({file, setup, blocks: limit, dbDir, mode, retain, sampleEvery, paceMs, out}) {
  const store = countingStateWrites(await LevelStore.open(dbDir));
  const modules = {store, chainspec, genesis: regtestGenesis};
  const {chain, collector, retainBlocks} = await openChain(modules, mode, retain);
  const blocks = readBlocks(file);
  for (let i = 0; i < setup; i++) await importOrThrow(chain, blocks.next().value);

  const times = [];
  const timing = blockTimes(collector);
  /** The bytes of state entries each block's batch stored (the window's floor). */
  const written = [];
  const samples = [];
  const ratios = [];
  let txsPerBlock;
  let collectionsSeen = collector?.completed() ?? 0;
  const started = performance.now();
  let measuring = 0;
  for (const bytes of blocks) {
    txsPerBlock ??= txCountOf(bytes);
    const storedBefore = store.stateBytesWritten;
    const completedBefore = collector?.completed() ?? 0;
    timing.begin();
    await importOrThrow(chain, bytes);
    timing.end();
    written.push(store.stateBytesWritten - storedBefore);
    const n = written.length;
    const m0 = performance.now();
    // After each collection, before the next deletes anything (a next one starts with its marking).
    if (collector && collector.completed() > collectionsSeen) {
      collectionsSeen = collector.completed();
      const ratio = await stateRatio(store, chain);
      const floor = windowFloor(ratio, written, retainBlocks);
      // One that ended while the bench measured (imports paused) is not one under import.
      const underImport = collectionsSeen > completedBefore;
      ratios.push({...ratio, collection: collectionsSeen, floor, underImport});
    }
    if (n % sampleEvery === 0) {
      const sample = {
        block: n,
        diskBytes: diskBytes(dbDir),
        stateFileBytes: await stateFileBytes(store),
        seconds: (performance.now() - started - measuring) / 1000,
      };
      samples.push(sample);
      const collections = collector ? `, ${collectionsSeen} collections` : "";
      console.log(`  [${mode}] block ${n}: disk ${(sample.diskBytes / 2 ** 20).toFixed(1)} MB${collections}`);
    }
    measuring += performance.now() - m0;
    if (n === limit) break;
    // A node at the chain's tip gets blocks apart, and its collector the time between them.
    if (paceMs > 0) await sleep(paceMs);
  }
  const final = {
    ...(await stateRatio(store, chain)),
    diskBytes: diskBytes(dbDir),
    memoryBytes: store.memoryBytes(),
  };
  const collectorStats = collector?.stats();
  const records = await timing.blocks();
  const flags = records.map((r) => (collecting(r) ? 1 : 0));
  for (const r of records) times.push(r.ms);
  await collector?.stop();
  await store.close();
  const result = {
    mode,
    paceMs,
    retainBlocks,
    collectorStats,
    blocks: times.length,
    txsPerBlock,
    all: summary(
      times,
      flags.map(() => 0),
      0,
      txsPerBlock,
    ),
    collecting: summary(times, flags, 1, txsPerBlock),
    quiet: summary(times, flags, 0, txsPerBlock),
    collections: collectionsSeen,
    slowest: slowest(records, 12),
    gcMs: records.reduce((sum, r) => sum + r.gcMs, 0),
    perBlock: {
      ms: records.map((r) => Number(r.ms.toFixed(2))),
      cpuMs: records.map((r) => Number(r.cpuMs.toFixed(2))),
      phase: records.map((r) => r.phase),
      gcMs: records.map((r) => Number(r.gcMs.toFixed(2))),
      loopMaxMs: records.map((r) => Number(r.loopMaxMs.toFixed(1))),
      queueMs: records.map((r) => Number(r.queueMs.toFixed(2))),
      stateBytesWritten: written,
    },
    samples,
    ratios,
    final,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  writeFileSync(out, JSON.stringify(result));
}

/**
 * The floor of the stored state after a collection ending at the head: the live state and what the
 * window's other blocks stored (their states differ from the head's by that much at most, less what
 * they overwrote again), against the live state.
 */
function windowFloor(ratio, written, retainBlocks) {
  const windowBytes = written.slice(-(retainBlocks - 1)).reduce((sum, b) => sum + b, 0);
  return (ratio.liveBytes + windowBytes) / ratio.liveBytes;
}

/** `store`, counting the bytes (keys and values) of the state entries its writes put (`stateBytesWritten`). */
function countingStateWrites(store) {
  const write = store.write.bind(store);
  store.stateBytesWritten = 0;
  store.write = (batch) => {
    for (const op of batch.ops)
      if (op.type === "put" && op.key[0] === Bucket.stateTrie)
        store.stateBytesWritten += op.key.length - 1 + op.value.length;
    return write(batch);
  };
  return store;
}

async function importOrThrow(chain, bytes) {
  const result = await chain.importBlock(bytes);
  if (result.kind !== ImportResultKind.IMPORTED_BEST)
    throw new Error(`block import failed: ${result.kind} ${result.error?.message ?? ""}`);
}

if (process.argv[1] === import.meta.filename) {
  await measure(JSON.parse(process.argv[2]));
  process.exit(0);
}
