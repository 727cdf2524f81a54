// RPC metrics: per-method requests, errors and latency; key ids only when given.
import {EventEmitter} from "node:events";
import type {RpcEvents} from "@xchain/rpc";
import {subscribe} from "@xchain/utils";
import {Registry} from "prom-client";
import {describe, expect, it} from "vitest";
import {createRpcMetrics} from "../../src/metrics/rpcMetrics.ts";

describe("the RPC metrics", () => {
  it("count requests, errors and latency per method", async () => {
    const registry = new Registry();
    const events = new EventEmitter<RpcEvents>();
    subscribe(events, createRpcMetrics(registry));
    events.emit("request", {method: "eth_blockNumber", durationMs: 2, failed: false});
    events.emit("request", {method: "eth_blockNumber", durationMs: 4, failed: false});
    events.emit("request", {method: "unknown", durationMs: 1, failed: true, keyId: "k1"});
    const text = await registry.metrics();
    expect(text).toContain('xchain_rpc_requests_total{method="eth_blockNumber"} 2');
    expect(text).toContain('xchain_rpc_errors_total{method="unknown"} 1');
    expect(text).not.toContain('xchain_rpc_errors_total{method="eth_blockNumber"}');
    expect(text).toContain('xchain_rpc_request_duration_seconds_sum{method="eth_blockNumber"} 0.006');
    expect(text).toContain('xchain_rpc_key_requests_total{key="k1"} 1');
  });
});
