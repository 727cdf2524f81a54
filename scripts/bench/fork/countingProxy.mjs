// A JSON-RPC proxy on a free loopback port between a fork node (xchain or anvil) and the upstream: it
// passes every request through unchanged and counts what reaches the upstream (HTTP requests, and the
// JSON-RPC calls inside them by method), so that both fork clients are measured by the same meter.
// The bench's form of test/e2e/support/upstreamProxy.ts, without its fault injection.
import {createServer} from "node:http";
import {keepAliveAgent, post} from "../rpc/loadGenerator.mjs";

export class CountingProxy {
  /** HTTP requests received (a batch counts one). */
  requests = 0;
  /** JSON-RPC calls received by method (a batch of n counts n). */
  calls = new Map();
  /** Milliseconds from each request's arrival to its answer, summed (the time the fork client waited on the upstream, proxy included). */
  busyMs = 0;

  constructor(upstream) {
    this.upstream = upstream;
    this.agent = keepAliveAgent(64);
  }

  /** Listens on a free loopback port; resolves with its URL. */
  async start() {
    this.server = createServer((req, res) => {
      const chunks = [];
      req.on("data", (c) => chunks.push(c));
      const arrived = performance.now();
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString();
        this.count(body);
        post(this.agent, this.upstream, body).then(
          (answer) => {
            res.writeHead(200, {"content-type": "application/json"});
            res.end(answer);
            this.busyMs += performance.now() - arrived;
          },
          (e) => {
            res.writeHead(502);
            res.end(e.message);
          },
        );
      });
    });
    await new Promise((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${this.server.address().port}`;
  }

  count(body) {
    this.requests++;
    let parsed;
    try {
      parsed = JSON.parse(body);
    } catch {
      return;
    }
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
      this.calls.set(item.method, (this.calls.get(item.method) ?? 0) + 1);
    }
  }

  /** The counts since the last reset: {requests, calls, byMethod, upstreamSeconds}. */
  snapshot() {
    const byMethod = Object.fromEntries([...this.calls].sort((a, b) => b[1] - a[1]));
    const calls = [...this.calls.values()].reduce((a, b) => a + b, 0);
    return {requests: this.requests, calls, byMethod, upstreamSeconds: this.busyMs / 1000};
  }

  reset() {
    this.requests = 0;
    this.calls = new Map();
    this.busyMs = 0;
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
    this.agent.destroy();
  }
}
