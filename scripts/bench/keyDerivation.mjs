// Key derivation under load (docs/reliability.md "Key derivation"): a regtest node with its keystore,
// N personal_newAccount calls sent at once (geth's standard scrypt, 256 MiB each), and meanwhile the
// node's RSS (/proc, every 20 ms) and the latency of an eth_blockNumber sent every 20 ms (how long the
// event loop was held). Then the answers, and once the node's CPU is idle the key files written and the RSS.
// Linux only; needs a build.
//
//   node scripts/bench/keyDerivation.mjs [calls=8]
import {existsSync, mkdtempSync, readdirSync, readFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {setTimeout as sleep} from "node:timers/promises";
import {localNodeArgs, startNode, stopNode} from "./nodeProcess.mjs";

const CALLS = Number(process.argv[2] ?? 8);
const PROBE_MS = 20;
const AFTER_MS = 5_000;
const BASELINE_MS = 3_000;
const MIB = 1024 * 1024;

const dataDir = mkdtempSync(join(tmpdir(), "xchain-bench-kdf-"));
const node = await startNode("key derivation", localNodeArgs(dataDir));
const rss = () =>
  Number(readFileSync(`/proc/${node.child.pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB$/m)[1]) * 1024;

let id = 0;
async function call(method, params = []) {
  const response = await fetch(node.http, {
    method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({jsonrpc: "2.0", id: ++id, method, params}),
  });
  return response.json();
}

try {
  await sleep(2_000);
  const idle = rss();
  const startHeight = Number((await call("eth_blockNumber")).result);
  let peak = idle;
  let running = true;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, PROBE_MS);
  /** eth_blockNumber every PROBE_MS while `running`: the worst latency and the count. */
  const probe = async () => {
    let worst = 0;
    let count = 0;
    while (running) {
      const sent = performance.now();
      await call("eth_blockNumber");
      worst = Math.max(worst, performance.now() - sent);
      count++;
      await sleep(PROBE_MS);
    }
    return {worst, count};
  };
  // The same probe with nothing else to do, as a baseline.
  const baseline = probe();
  await sleep(BASELINE_MS);
  running = false;
  const idleProbe = await baseline;
  running = true;
  const prober = probe();
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({length: CALLS}, (_, i) => call("personal_newAccount", [`passphrase ${i}`])),
  );
  const elapsed = performance.now() - started;
  running = false;
  const loadProbe = await prober;
  clearInterval(sampler);
  const endHeight = Number((await call("eth_blockNumber")).result);
  // Work answered -32011 may still be running: wait until the node's CPU has been nearly idle for
  // three seconds in a row (one quiet second can be a busy machine's, not the end of the work).
  const cpuTicks = () => {
    const fields = readFileSync(`/proc/${node.child.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return Number(fields[11]) + Number(fields[12]);
  };
  for (let waited = 0, quiet = 0, last = cpuTicks(); waited < 120_000 && quiet < 3; waited += 1_000) {
    await sleep(1_000);
    const now = cpuTicks();
    quiet = now - last < 20 ? quiet + 1 : 0;
    last = now;
  }
  await sleep(AFTER_MS);
  const keyDir = join(dataDir, "keystore");
  const files = existsSync(keyDir) ? readdirSync(keyDir).filter((name) => !name.endsWith(".tmp")).length : 0;
  const after = rss();
  const codes = {};
  for (const answer of answers) {
    const key = answer.error ? String(answer.error.code) : "address";
    codes[key] = (codes[key] ?? 0) + 1;
  }
  const mib = (bytes) => `${(bytes / MIB).toFixed(0)} MiB`;
  console.log(
    `${CALLS} concurrent personal_newAccount: all answered in ${(elapsed / 1000).toFixed(1)} s; answers ${JSON.stringify(codes)}; ` +
      `key files ${files}; RSS idle ${mib(idle)}, peak ${mib(peak)}, ${AFTER_MS / 1000} s after the work ended ${mib(after)}; ` +
      `eth_blockNumber every ${PROBE_MS} ms: worst ${loadProbe.worst.toFixed(0)} ms over ${loadProbe.count} probes ` +
      `(idle: worst ${idleProbe.worst.toFixed(0)} ms over ${idleProbe.count}); ` +
      `blocks mined meanwhile ${endHeight - startHeight}`,
  );
} finally {
  await stopNode(node);
}
