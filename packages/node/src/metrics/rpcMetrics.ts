/**
 * RPC requests, errors and latency per method (docs/operations.md), counted from the RPC server's
 * `request` events. The rpc package names only registered methods (others are "unknown"), so the
 * `method` label is bounded; each method's children are looked up once and kept, so a request
 * costs a map lookup and three updates. With the gateway on, requests, errors and rate refusals are
 * also counted per API key id (`rateLimited` events): the keys file bounds that label.
 */
import type {RpcEvents} from "@xchain/rpc";
import type {EventListeners} from "@xchain/utils";
import {Counter, Histogram, type Registry} from "prom-client";

/** Latency buckets, in seconds: from a cached read to a long trace. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface MethodChildren {
  requests: Counter.Internal;
  errors: Counter.Internal;
  latency: Histogram.Internal<"method">;
}

/** Creates the RPC metrics in `registry`; the returned listener updates them. */
export function createRpcMetrics(registry: Registry): EventListeners<RpcEvents> {
  const requests = new Counter({
    name: "xchain_rpc_requests_total",
    help: "JSON-RPC requests answered, by method",
    labelNames: ["method"] as const,
    registers: [registry],
  });
  const errors = new Counter({
    name: "xchain_rpc_errors_total",
    help: "JSON-RPC requests answered with an error, by method",
    labelNames: ["method"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "xchain_rpc_request_duration_seconds",
    help: "Time to answer a JSON-RPC request, by method",
    labelNames: ["method"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const perKey = (name: string, help: string) =>
    new Counter({name, help, labelNames: ["key"] as const, registers: [registry]});
  const byKey = perKey(
    "xchain_rpc_key_requests_total",
    "JSON-RPC requests answered, by API key id (only when the caller's key is known)",
  );
  const errorsByKey = perKey(
    "xchain_rpc_key_errors_total",
    "JSON-RPC requests answered with an error, by API key id (permission refusals included)",
  );
  const rateLimitedByKey = perKey(
    "xchain_rpc_key_rate_limited_total",
    "JSON-RPC requests refused for their API key's rate (docs/gateway.md §3), by API key id",
  );
  const children = new Map<string, MethodChildren>();
  return {
    request({method, durationMs, failed, keyId}) {
      let child = children.get(method);
      if (!child) {
        child = {requests: requests.labels(method), errors: errors.labels(method), latency: latency.labels(method)};
        children.set(method, child);
      }
      child.requests.inc();
      if (failed) child.errors.inc();
      child.latency.observe(durationMs / 1000);
      if (keyId === undefined) return;
      byKey.labels(keyId).inc();
      if (failed) errorsByKey.labels(keyId).inc();
    },
    rateLimited({requests, keyId}) {
      if (keyId !== undefined) rateLimitedByKey.labels(keyId).inc(requests);
    },
  };
}
