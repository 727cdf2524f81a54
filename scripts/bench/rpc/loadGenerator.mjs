// A small closed-loop HTTP load generator for JSON-RPC: N requests in flight over keep-alive
// connections (node:http Agent), each worker sending its next request when the previous answer has
// been read in full. Records the latency of every request after the warm-up.
import http from "node:http";

/** POSTs `body` (a string) and resolves with the whole response body. */
export function post(agent, url, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {agent, method: "POST", headers: {"content-type": "application/json", "content-length": Buffer.byteLength(body)}},
      (response) => {
        const chunks = [];
        response.on("data", (c) => chunks.push(c));
        response.on("end", () => resolve(Buffer.concat(chunks)));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** One JSON-RPC call over `agent`; throws on an error answer. */
export async function call(agent, url, method, params = []) {
  const answer = JSON.parse(
    (await post(agent, url, JSON.stringify({jsonrpc: "2.0", id: 1, method, params}))).toString(),
  );
  if (answer.error) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`);
  return answer.result;
}

/** A keep-alive agent for `sockets` concurrent connections. */
export function keepAliveAgent(sockets) {
  return new http.Agent({keepAlive: true, maxSockets: sockets});
}

/**
 * The placeholder of a body sent distinct each time: 40 hex digits replace it, the run's number in
 * the first 8 and a counter in the other 32, so that no two runs of a process send the same value
 * (a server's answer cache would serve a later run's repeats; the wrk script writes the same form).
 */
export const DISTINCT = "__N__";

let runs = 0;

/** A number for the next run that sends distinct bodies. */
export function nextDistinctRun() {
  return ++runs;
}

/** `body` with the placeholder replaced by run `run`'s value `n` (unchanged when it has none). */
export function distinctBody(body, run, n) {
  return body.replaceAll(DISTINCT, `${run.toString(16).padStart(8, "0")}${n.toString(16).padStart(32, "0")}`);
}

/**
 * Runs `inFlight` workers POSTing `body` for `warmupMs + durationMs` (a body holding `DISTINCT`
 * differs in every request); the first answer is checked for a JSON-RPC error. Returns requests per
 * second and the p50/p99 latency in milliseconds of the requests that started after the warm-up.
 * `onStart` is called when the measured time begins.
 */
export async function measure(url, body, {inFlight = 32, durationMs = 5000, warmupMs = 1000, onStart} = {}) {
  const agent = keepAliveAgent(inFlight);
  const run = nextDistinctRun();
  let sent = 0;
  const first = (await post(agent, url, distinctBody(body, run, sent++))).toString();
  if (first.includes('"error"')) throw new Error(`error answer: ${first.slice(0, 300)}`);
  const start = performance.now();
  const measuredFrom = start + warmupMs;
  const end = measuredFrom + durationMs;
  const latencies = [];
  const startTimer = onStart && setTimeout(onStart, warmupMs);
  const worker = async () => {
    for (;;) {
      const t0 = performance.now();
      if (t0 >= end) return;
      await post(agent, url, distinctBody(body, run, sent++));
      if (t0 >= measuredFrom) latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({length: inFlight}, worker));
  clearTimeout(startTimer);
  const elapsedMs = performance.now() - measuredFrom;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return {perSecond: (latencies.length / elapsedMs) * 1000, p50: at(0.5), p99: at(0.99), count: latencies.length};
}
