/**
 * The metrics listener (docs/operations.md): `GET /metrics` in Prometheus' text format, and the
 * same `GET /health` and `GET /ready` as the RPC HTTP port. Anything else is 404; a method other
 * than GET or HEAD is 405.
 */
import {createServer} from "node:http";
import {type HealthProbe, healthAnswer, type Listener, listen} from "@xchain/rpc";
import type {Registry} from "prom-client";
import type {Logger} from "../logger.ts";
import type {MetricsOptions} from "../options.ts";

/** What the listener serves. */
export interface MetricsServerModules {
  registry: Registry;
  health: HealthProbe;
  logger: Logger;
}

/** Listens on `metrics.host:metrics.port`; rejects when the address cannot be bound. */
export function startMetricsServer(
  opts: Pick<MetricsOptions, "host" | "port">,
  {registry, health, logger}: MetricsServerModules,
): Promise<Listener> {
  const server = createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, {Allow: "GET, HEAD", "Content-Type": "text/plain"}).end("only GET is supported\n");
      return;
    }
    const probe = healthAnswer(req.url, health);
    if (probe) {
      res.writeHead(probe.status, {"Content-Type": "application/json", "Cache-Control": "no-store"}).end(probe.body);
      return;
    }
    if (req.url?.split("?", 1)[0] !== "/metrics") {
      res.writeHead(404, {"Content-Type": "text/plain"}).end("not found: /metrics, /health and /ready are served\n");
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, {"Content-Type": registry.contentType}).end(text),
      (error) => {
        logger.error({err: error}, "collecting the metrics failed");
        if (!res.headersSent) res.writeHead(500, {"Content-Type": "text/plain"}).end("collecting the metrics failed\n");
      },
    );
  });
  return listen(server, opts.host, opts.port);
}
