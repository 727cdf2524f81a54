// The CPU time a process tree has used so far, from /proc (Linux): what the benchmark divides by the
// requests served to tell a server-bound figure from a client-bound one. The tree, because a server
// may run under a launcher (the anvil npm package's bin starts the real binary as a child).
import {execFileSync} from "node:child_process";
import {readdirSync, readFileSync} from "node:fs";

const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

function read(path) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    // The process or thread ended meanwhile.
    return "";
  }
}

function childrenOf(pid) {
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((tid) => read(`/proc/${pid}/task/${tid}/children`).split(" ").filter(Boolean).map(Number));
}

/** User plus system CPU time of `pid` and its descendants in microseconds. */
export function cpuMicros(pid) {
  const stat = read(`/proc/${pid}/stat`);
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const own = stat ? ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND : 0;
  return childrenOf(pid).reduce((sum, child) => sum + cpuMicros(child), own);
}

/** User plus system CPU time of each thread of `pid` in microseconds, by thread id (the main thread's is `pid`). */
export function threadCpuMicros(pid) {
  const threads = new Map();
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tasks) {
    const stat = read(`/proc/${pid}/task/${tid}/stat`);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    threads.set(Number(tid), ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND);
  }
  return threads;
}
