// Per-block import times of the storage benchmark (storage/measure.mjs) and what each block's import
// shared its time with, so that a stall can be attributed (docs/performance.md §25):
//   - the collector's phase when the import began and when it ended, and what the collector did
//     meanwhile (entries marked and swept, and the time its steps held the chain's queue: an import
//     queued behind a step waits that long);
//   - the garbage collections of V8 during the import (PerformanceObserver "gc" entries, their
//     durations summed over the import's interval);
//   - the longest the event loop was blocked during the import (monitorEventLoopDelay): one long
//     synchronous run, whoever's;
//   - the CPU time the process used meanwhile (all its threads: LevelDB's and the GC's too): on a
//     loaded machine a wall time far above it is time the process waited for a core.
import {monitorEventLoopDelay, PerformanceObserver} from "node:perf_hooks";

/** Records blocks one at a time: `begin()` before an import, `end()` after it; `blocks()` once done. */
export function blockTimes(collector) {
  const records = [];
  const gcs = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push([e.startTime, e.duration]);
  });
  observer.observe({entryTypes: ["gc"]});
  const loop = monitorEventLoopDelay({resolution: 5});
  loop.enable();
  let open;
  const stats = () => collector?.stats();
  return {
    begin() {
      loop.reset();
      open = {start: performance.now(), before: stats(), cpu: process.cpuUsage()};
    },
    end() {
      const end = performance.now();
      const after = stats();
      const {start, before, cpu} = open;
      const used = process.cpuUsage(cpu);
      records.push({
        start,
        ms: end - start,
        cpuMs: (used.user + used.system) / 1000,
        loopMaxMs: loop.max / 1e6,
        phase: before?.phase ?? 0,
        phaseEnd: after?.phase ?? 0,
        collected: (after?.collections ?? 0) - (before?.collections ?? 0),
        marked: (after?.markedNodes ?? 0) - (before?.markedNodes ?? 0),
        swept: (after?.sweptKeys ?? 0) - (before?.sweptKeys ?? 0),
        queueMs: (after?.queueMs ?? 0) - (before?.queueMs ?? 0),
      });
    },
    /** Every block's record, its GC time filled in (entries arrive after the fact). */
    async blocks() {
      await new Promise((resolve) => setTimeout(resolve, 50));
      observer.disconnect();
      loop.disable();
      gcs.sort((a, b) => a[0] - b[0]);
      let g = 0;
      for (const r of records) {
        const end = r.start + r.ms;
        while (g < gcs.length && gcs[g][0] + gcs[g][1] < r.start) g++;
        let gcMs = 0;
        for (let i = g; i < gcs.length && gcs[i][0] < end; i++)
          gcMs += Math.min(end, gcs[i][0] + gcs[i][1]) - Math.max(r.start, gcs[i][0]);
        r.gcMs = gcMs;
      }
      return records;
    },
  };
}

/** Whether a collection ran during the block's import (began, ran, or ended). */
export function collecting(r) {
  return r.phase !== 0 || r.phaseEnd !== 0 || r.collected > 0;
}

/** The `count` slowest imports, slowest first, each with what it shared its time with. */
export function slowest(records, count) {
  return records
    .map((r, i) => ({block: i + 1, ...r}))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map(({start, ...r}) => r);
}
