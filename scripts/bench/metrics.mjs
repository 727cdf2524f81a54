// The cost of `[metrics]` on the RPC hot path: eth_blockNumber throughput of two regtest nodes,
// metrics off and on (scraped once a second meanwhile), in one run, alternating rounds. Needs a build.
//
//   node scripts/bench/metrics.mjs [secondsPerRound=5] [rounds=3]
import {measure} from "./rpc/loadGenerator.mjs";
import {freePort, startXchain} from "./rpc/servers.mjs";

const durationMs = Number(process.argv[2] ?? 5) * 1000;
const rounds = Number(process.argv[3] ?? 3);
const body = JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: []});

const off = await startXchain();
const metricsPort = await freePort();
const on = await startXchain([], ["--metrics.enabled", "true", "--metrics.port", String(metricsPort)]);
const scraper = setInterval(() => {
  fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
    (r) => r.text(),
    () => undefined,
  );
}, 1000);
try {
  const results = {off: [], on: []};
  for (let i = 0; i < rounds; i++) {
    for (const [name, server] of [
      ["off", off],
      ["on", on],
    ]) {
      const r = await measure(server.url, body, {durationMs});
      results[name].push(r.perSecond);
      console.log(
        `round ${i + 1} metrics ${name}: ${Math.round(r.perSecond)}/s (p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms)`,
      );
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [a, b] = [mean(results.off), mean(results.on)];
  console.log(`eth_blockNumber: off ${Math.round(a)}/s, on ${Math.round(b)}/s, on/off ${(b / a).toFixed(3)}`);
} finally {
  clearInterval(scraper);
  await Promise.all([off.stop(), on.stop()]);
}
