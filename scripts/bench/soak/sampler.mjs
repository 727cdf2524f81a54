// What the soak samples of the node every few seconds, and the summary of the samples: RSS from
// /proc/<pid>/status; from its metrics endpoint the V8 heap, the cache budgets' gauges, the
// database's size on disk (xchain_db_size_bytes, measured by the node at most every 30 s) and the
// head number.

import {readFileSync} from "node:fs";

const MIB = 2 ** 20;

/** The value of an unlabelled metric line `name value`, or undefined. */
function metric(text, name) {
  const match = new RegExp(`^${name} (\\S+)$`, "m").exec(text);
  return match ? Number(match[1]) : undefined;
}

/** Every `xchain_cache_bytes{cache="..."}` gauge, by cache name. */
function cacheGauges(text, name) {
  const caches = {};
  for (const match of text.matchAll(new RegExp(`^${name}\\{cache="([^"]+)"\\} (\\S+)$`, "gm"))) {
    caches[match[1]] = Number(match[2]);
  }
  return caches;
}

/** One sample of the node: seconds since `startedAt`, head, RSS, heap (main thread, call workers), external memory, db size, caches. */
export async function sample(node, {metricsUrl, startedAt}) {
  const status = readFileSync(`/proc/${node.child.pid}/status`, "utf8");
  const rss = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)[1]) * 1024;
  const text = await (await fetch(metricsUrl)).text();
  return {
    seconds: (Date.now() - startedAt) / 1000,
    head: metric(text, "xchain_head_block_number"),
    rss,
    heap: metric(text, "nodejs_heap_size_used_bytes"),
    external: metric(text, "nodejs_external_memory_bytes"),
    workersHeap: metric(text, "xchain_call_workers_heap_used_bytes") ?? 0,
    db: metric(text, "xchain_db_size_bytes"),
    caches: cacheGauges(text, "xchain_cache_bytes"),
    budgets: cacheGauges(text, "xchain_cache_budget_bytes"),
  };
}

const mib = (bytes) => (bytes / MIB).toFixed(1);

/** The table header and one row per sample. */
export function formatSample(s, first) {
  const row = [
    (s.seconds / 60).toFixed(1).padStart(6),
    String(s.head).padStart(7),
    mib(s.rss).padStart(8),
    mib(s.heap).padStart(8),
    mib(s.external).padStart(9),
    mib(s.workersHeap).padStart(9),
    mib(cacheSum(s)).padStart(9),
    mib(s.db).padStart(8),
  ].join(" ");
  const header = `${"min".padStart(6)} ${"head".padStart(7)} ${"RSS MiB".padStart(8)} ${"heap MiB".padStart(8)} ${"extrn MiB".padStart(9)} ${"wheap MiB".padStart(9)} ${"cache MiB".padStart(9)} ${"db MiB".padStart(8)}`;
  return first ? `${header}\n${row}` : row;
}

/** Least-squares slope of `value` over time, per hour. */
function slopePerHour(samples, value) {
  const n = samples.length;
  if (n < 2) return Number.NaN;
  const xs = samples.map((s) => s.seconds / 3600);
  const ys = samples.map(value);
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return num / den;
}

const cacheSum = (s) => Object.values(s.caches).reduce((a, b) => a + b, 0);

/**
 * What the heap holds beyond the caches, per third of the run: the lowest heap sample (the
 * sawtooth's floor, nearest to the live heap after a collection) minus the caches' estimate at
 * that sample. Flat means the growth is the caches filling; rising means something else grows.
 */
function leakLines(samples) {
  const third = Math.max(1, Math.floor(samples.length / 3));
  const parts = [samples.slice(0, third), samples.slice(third, 2 * third), samples.slice(2 * third)];
  const floors = parts
    .filter((part) => part.length > 0)
    .map((part) => {
      const floor = part.reduce((low, s) => (s.heap < low.heap ? s : low));
      return `${mib(floor.heap - cacheSum(floor))} (${mib(floor.heap)} − ${mib(cacheSum(floor))})`;
    });
  return [`heap floor − caches, by third: ${floors.join(", ")} MiB`];
}

/** The summary lines: start, plateau (mean and slope of the last third), peak, disk per block, caches. */
export function summarize(samples) {
  const first = samples[0];
  const last = samples.at(-1);
  const tail = samples.slice(Math.floor((samples.length * 2) / 3));
  const mean = (value) => tail.reduce((a, s) => a + value(s), 0) / tail.length;
  const line = (label, value) =>
    `${label.padEnd(6)} start ${mib(value(first))} MiB, last third ${mib(mean(value))} MiB (slope ${mib(
      slopePerHour(tail, value),
    )} MiB/h), peak ${mib(Math.max(...samples.map(value)))} MiB, end ${mib(value(last))} MiB`;
  const blocks = last.head - first.head;
  const lines = [
    `${samples.length} samples over ${(last.seconds / 60).toFixed(1)} min; head ${first.head} → ${last.head} (${blocks} blocks)`,
    line("RSS", (s) => s.rss),
    line("heap", (s) => s.heap),
    line("extrn", (s) => s.external),
    line("wheap", (s) => s.workersHeap),
    `disk   ${mib(first.db)} → ${mib(last.db)} MiB: ${blocks > 0 ? ((last.db - first.db) / blocks / 1024).toFixed(2) : "-"} KiB per block`,
    ...leakLines(samples),
  ];
  const names = Object.keys(last.budgets).sort();
  if (names.length > 0) {
    lines.push("caches at the end (held / budget, MiB):");
    let held = 0;
    let budget = 0;
    for (const name of names) {
      held += last.caches[name] ?? 0;
      budget += last.budgets[name];
      lines.push(
        `  ${name.padEnd(28)} ${mib(last.caches[name] ?? 0).padStart(8)} / ${mib(last.budgets[name]).padStart(8)}`,
      );
    }
    lines.push(`  ${"sum".padEnd(28)} ${mib(held).padStart(8)} / ${mib(budget).padStart(8)}`);
  }
  return lines;
}
