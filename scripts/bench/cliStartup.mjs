// Wall time of `xchain --version`, `xchain --help` and `xchain start --help` (docs/performance.md
// "The command line's start-up"), beside a bare `node` that runs nothing: the difference is what the
// CLI loads before it answers. Each command runs `runs` times in turn; prints the median and the fastest run.
// Build first: npm run build    Run: node scripts/bench/cliStartup.mjs [runs=10] [bin=packages/node/bin/xchain.js]
import {spawnSync} from "node:child_process";
import {join} from "node:path";

const runs = Number(process.argv[2] ?? 10);
const bin = process.argv[3] ?? join(import.meta.dirname, "..", "..", "packages", "node", "bin", "xchain.js");
const commands = {
  "node -e ''": ["-e", ""],
  "xchain --version": [bin, "--version"],
  "xchain --help": [bin, "--help"],
  "xchain start --help": [bin, "start", "--help"],
};

const times = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
for (let i = 0; i < runs; i++) {
  for (const [name, args] of Object.entries(commands)) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, {stdio: "ignore"});
    if (result.status !== 0) throw new Error(`${name} exited with ${result.status}`);
    times[name].push(Number(process.hrtime.bigint() - start) / 1e9);
  }
}
for (const [name, list] of Object.entries(times)) {
  list.sort((a, b) => a - b);
  const median = (list[Math.floor((list.length - 1) / 2)] + list[Math.ceil((list.length - 1) / 2)]) / 2;
  console.log(`${name.padEnd(21)} median ${median.toFixed(2)} s, fastest ${list[0].toFixed(2)} s (${runs} runs)`);
}
