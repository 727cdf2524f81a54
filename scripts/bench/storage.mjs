// The growth of the data directory, archive against pruned (docs/performance.md §25): a synthetic
// regtest chain (storage/mixedChain.mjs: value and ERC-20 transfers between `accounts` accounts,
// a contract overwriting storage slots, a few fresh accounts) is built once into a cache directory
// keyed by its parameters, then imported through the chain's real import path (storage/measure.mjs,
// a child process per mode) into a fresh LevelDB store in each mode. Prints, per mode: the disk
// (total, per block, sampled every --sample blocks), the stored state against the live state (the
// bytes the head's root reaches), in pruned mode after every collection, the import rate with and
// without a collection running and the longest per-block import (the stall), beside the targets:
// stored state ≤ 2.5× live after every collection, no stall over 500 ms because of a collection.
// Writes every figure as JSON (--json). Needs a build (`npx tsc -b`).
//
//   node scripts/bench/storage.mjs [--blocks 200000] [--accounts 10000] [--mode archive|pruned|both]
//     [--retain N] [--sample 1000] [--pace-ms 0] [--import N] [--keep] [--cache DIR] [--json FILE]
//
// --retain: state.retainBlocks of the pruned run (default the node's). --pace-ms: a pause between two
// blocks, not timed (0: blocks back to back, as a node catching up imports them; a node at the tip
// gets one every few seconds, and its collector the time between). STORAGE_BENCH_CPU_PROF=<dir>
// writes a CPU profile of each import (node --cpu-prof) into <dir>. --import N: only the first N
// measured blocks of the (cached) chain are imported.
//
// --keep keeps the built chain and the data directories in the cache (a later run with the same
// --blocks and --accounts reuses the chain); without it, what the run created is removed.
import {execFileSync} from "node:child_process";
import {existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {homedir, loadavg} from "node:os";
import {join, resolve} from "node:path";
import {parseArgs} from "node:util";
import {buildMixedChain} from "./storage/mixedChain.mjs";
import {requireMode} from "./storage/retention.mjs";

const {values: opts} = parseArgs({
  options: {
    blocks: {type: "string", default: "200000"},
    accounts: {type: "string", default: "10000"},
    mode: {type: "string", default: "both"},
    retain: {type: "string"},
    sample: {type: "string", default: "1000"},
    "pace-ms": {type: "string", default: "0"},
    import: {type: "string"},
    keep: {type: "boolean", default: false},
    cache: {type: "string", default: join(homedir(), ".cache", "xchain-bench", "storage")},
    json: {type: "string", default: "storage-bench.json"},
  },
});
const blocks = Number(opts.blocks);
const accounts = Number(opts.accounts);
const sampleEvery = Number(opts.sample);
const paceMs = Number(opts["pace-ms"]);
const importBlocks = opts.import === undefined ? blocks : Math.min(blocks, Number(opts.import));
for (const [flag, value] of Object.entries({blocks, accounts, sample: sampleEvery, import: importBlocks})) {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`--${flag}: a whole number of at least 1, not ${value}`);
}
if (!Number.isFinite(paceMs) || paceMs < 0) throw new Error(`--pace-ms: milliseconds, not ${opts["pace-ms"]}`);
if (!["archive", "pruned", "both"].includes(opts.mode))
  throw new Error(`--mode: archive, pruned or both, not ${opts.mode}`);
const modes = opts.mode === "both" ? ["archive", "pruned"] : [opts.mode];
try {
  for (const mode of modes) requireMode(mode);
} catch (e) {
  console.error(e.message);
  process.exit(2);
}
const retain = opts.retain === undefined ? undefined : Number(opts.retain);
const STORED_TO_LIVE_TARGET = 2.5;
const STALL_TARGET_MS = 500;

const cacheDir = join(resolve(opts.cache), `blocks-${blocks}-accounts-${accounts}`);
const chainFile = join(cacheDir, "chain.bin");
const chainMeta = join(cacheDir, "chain.json");
const created = [];
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

try {
  if (!existsSync(chainMeta)) {
    mkdirSync(cacheDir, {recursive: true});
    created.push(cacheDir);
    console.log(`building ${blocks} blocks over ${accounts} accounts into ${cacheDir} (load ${load()})`);
    const start = performance.now();
    const meta = await buildMixedChain({blocks, accounts}, chainFile, cacheDir, (n) => {
      const rate = n / ((performance.now() - start) / 1000);
      console.log(`  built ${n}/${blocks} (${rate.toFixed(0)} blocks/s, load ${load()})`);
    });
    writeFileSync(chainMeta, JSON.stringify({...meta, buildSeconds: (performance.now() - start) / 1000}));
  }
  const meta = JSON.parse(readFileSync(chainMeta, "utf8"));
  console.log(
    `chain: ${meta.setup} setup blocks, ${meta.blocks} measured blocks, ${meta.txs} transactions (cache ${cacheDir})`,
  );

  const results = {};
  for (const mode of modes) {
    const name = mode === "archive" ? "archive" : `pruned-${retain ?? "default"}${paceMs > 0 ? `-pace-${paceMs}` : ""}`;
    const dbDir = join(cacheDir, name);
    rmSync(dbDir, {recursive: true, force: true});
    if (!created.includes(cacheDir)) created.push(dbDir);
    const out = join(cacheDir, `${name}.result.json`);
    console.log(`\n[${mode}] importing ${importBlocks} blocks into ${dbDir} (load ${load()})`);
    const args = {
      file: chainFile,
      setup: meta.setup,
      blocks: importBlocks,
      dbDir,
      mode,
      retain,
      sampleEvery,
      paceMs,
      out,
    };
    const loadBefore = load();
    const profile = process.env.STORAGE_BENCH_CPU_PROF;
    const nodeFlags = profile ? ["--cpu-prof", `--cpu-prof-dir=${resolve(profile)}`] : [];
    const measureScript = join(import.meta.dirname, "storage", "measure.mjs");
    execFileSync(process.execPath, [...nodeFlags, measureScript, JSON.stringify(args)], {stdio: "inherit"});
    results[mode] = {...JSON.parse(readFileSync(out, "utf8")), loadBefore, loadAfter: load()};
    writeFileSync(out, JSON.stringify(results[mode]));
    if (!created.includes(cacheDir)) created.push(out);
    report(mode, results[mode]);
  }
  // An archive run of the same chain kept in the cache serves a pruned-only run's comparison.
  const archiveFile = join(cacheDir, "archive.result.json");
  const archive =
    results.archive ?? (existsSync(archiveFile) ? JSON.parse(readFileSync(archiveFile, "utf8")) : undefined);
  if (archive && results.pruned) results.comparison = compare(archive, results.pruned);
  const json = resolve(opts.json);
  writeFileSync(
    json,
    JSON.stringify({date: new Date().toISOString(), argv: process.argv.slice(2), chain: meta, results}, null, 1),
  );
  console.log(`\nfigures: ${json}`);
} finally {
  if (!opts.keep) for (const path of created) rmSync(path, {recursive: true, force: true});
}

/** Archive against pruned, and the window's floor: what any pruner keeps. */
function compare(archive, pruned) {
  const a = archive.final;
  const p = pruned.final;
  // The oldest retained state (about the live one) and every entry the window's blocks wrote since,
  // which the archive run measures per block.
  const statePerBlock = a.storedBytes / archive.blocks;
  const floorRatio = (p.liveBytes + pruned.retainBlocks * statePerBlock) / p.liveBytes;
  // A pruned run of fewer blocks (--import) is compared with the archive's disk sample at its length.
  const sameLength = archive.blocks === pruned.blocks;
  const archiveDisk = sameLength ? a.diskBytes : archive.samples.find((s) => s.block === pruned.blocks)?.diskBytes;
  const disk = archiveDisk === undefined ? undefined : archiveDisk / p.diskBytes;
  const state = sameLength ? a.storedBytes / p.storedBytes : undefined;
  const times = (x) => (x === undefined ? "-" : `${x.toFixed(2)}×`);
  console.log(`\narchive / pruned at block ${pruned.blocks}: disk ${times(disk)}, stored state ${times(state)}`);
  console.log(
    `the window's floor: ${(statePerBlock / 1024).toFixed(1)} KiB of state written a block × ${pruned.retainBlocks} blocks kept + the live state = ${floorRatio.toFixed(2)}× the live state`,
  );
  return {disk, state, statePerBlock, floorRatio};
}

/** The summary table of one mode's run. */
function report(mode, r) {
  const f = r.final;
  const row = (name, s) =>
    `  ${name.padEnd(22)} ${String(s.blocks).padStart(7)} blocks ${s.blocksPerSecond.toFixed(1).padStart(7)} blocks/s ${s.txPerSecond.toFixed(0).padStart(6)} tx/s   p50 ${s.p50Ms.toFixed(1)} ms  p99 ${s.p99Ms.toFixed(1)} ms  max ${s.maxMs.toFixed(1)} ms`;
  const pace = r.paceMs > 0 ? `, ${r.paceMs} ms between blocks` : "";
  const window = `${r.retainBlocks === undefined ? "" : `, state of the last ${r.retainBlocks} blocks kept`}${pace}`;
  console.log(`[${mode}] ${r.blocks} blocks of ${r.txsPerBlock} transactions${window}, peak RSS ${r.peakRssMb} MB`);
  console.log(`  disk: ${mb(f.diskBytes)} MB total, ${(f.diskBytes / r.blocks).toFixed(0)} bytes/block`);
  // The state bucket's share of the table files, where the build can tell (LevelStore.approximateBucketBytes).
  const stateMb = (s) => (s.stateFileBytes === undefined ? "-" : mb(s.stateFileBytes));
  console.log("    block   disk MB  bytes/block since last sample  state in table files MB");
  let previous = {block: 0, diskBytes: 0};
  for (const s of r.samples) {
    const perBlock = (s.diskBytes - previous.diskBytes) / (s.block - previous.block);
    console.log(
      `  ${String(s.block).padStart(7)} ${mb(s.diskBytes).padStart(9)} ${perBlock.toFixed(0).padStart(12)} ${stateMb(s).padStart(36)}`,
    );
    previous = s;
  }
  console.log(
    `  state: stored ${mb(f.storedBytes)} MB (${f.storedEntries} entries; ${stateMb(f)} MB in table files), live ${mb(f.liveBytes)} MB (${f.liveEntries} entries, ${f.accounts} accounts): ${f.ratio.toFixed(2)}×`,
  );
  console.log(row("import, all blocks", r.all));
  if (mode === "pruned") {
    console.log(row("while collecting", r.collecting));
    console.log(row("no collection", r.quiet));
    const c = r.collectorStats;
    console.log(
      `  collector: ${c.collections} collections, ${c.markedNodes} entries marked, ${c.deletedKeys} deleted of ${c.sweptKeys} swept, longest sweep step ${c.longestStepMs.toFixed(1)} ms, longest hold of the chain's queue ${c.longestSliceMs?.toFixed(1) ?? "-"} ms (${((c.queueMs ?? 0) / 1000).toFixed(1)} s in all); at the end: phase ${c.phase} (0 idle, 1 mark, 2 sweep, 3 clear)`,
    );
    console.log(
      `  stored / live after each collection (the window's floor; p: ended while imports paused): ${r.ratios.map((x) => `${x.ratio.toFixed(2)} (${x.floor?.toFixed(2) ?? "-"})${x.underImport === false ? "p" : ""}`).join(" ")}`,
    );
    const underImport = r.ratios.filter((x) => x.underImport !== false);
    const worst = underImport.reduce((w, x) => (x.ratio > (w?.ratio ?? 0) ? x : w), undefined);
    const sorted = underImport.map((x) => x.ratio).sort((a, b) => a - b);
    const met = (ok) => (ok ? "met" : "NOT MET");
    console.log(
      `  ${r.collections} collections, ${underImport.length} ended under import (the others while the bench measured, imports paused); stored / live after those: median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(2) ?? "-"}×, max ${worst?.ratio.toFixed(2) ?? "-"}× (block ${worst?.block ?? "-"}, floor ${worst?.floor?.toFixed(2) ?? "-"}×); target ≤ ${STORED_TO_LIVE_TARGET}×: ${met(underImport.length > 0 && worst.ratio <= STORED_TO_LIVE_TARGET)}`,
    );
    console.log(
      `  longest import while collecting ${r.collecting.maxMs.toFixed(1)} ms, without ${r.quiet.maxMs.toFixed(1)} ms; target: no stall > ${STALL_TARGET_MS} ms from a collection: ${met(!(r.collecting.maxMs > STALL_TARGET_MS))}`,
    );
  }
  if (r.slowest !== undefined) {
    const waited = Math.max(0, ...(r.perBlock?.queueMs ?? []));
    console.log(
      `  the longest an import waited for the collector's turn in the chain's queue: ${waited.toFixed(1)} ms`,
    );
    console.log(`  V8 garbage collection during imports: ${(r.gcMs / 1000).toFixed(1)} s in all`);
    console.log(
      "  the slowest imports: block, ms, process CPU ms, GC ms, longest event-loop block ms, collector's queue ms, phase",
    );
    for (const b of r.slowest) {
      const phase = b.phase === b.phaseEnd ? `${b.phase}` : `${b.phase}→${b.phaseEnd}`;
      const did = b.marked + b.swept > 0 ? ` (marked ${b.marked}, swept ${b.swept})` : "";
      console.log(
        `    ${String(b.block).padStart(7)} ${b.ms.toFixed(0).padStart(6)} ${b.cpuMs.toFixed(0).padStart(6)} ${b.gcMs.toFixed(0).padStart(6)} ${b.loopMaxMs.toFixed(0).padStart(6)} ${b.queueMs.toFixed(0).padStart(6)}  ${phase}${did}`,
      );
    }
  }
}
