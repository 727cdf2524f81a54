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

  it("count each API key's requests, errors and rate refusals; nothing per key without one", async () => {
    const registry = new Registry();
    const events = new EventEmitter<RpcEvents>();
    subscribe(events, createRpcMetrics(registry));
    events.emit("request", {method: "eth_chainId", durationMs: 1, failed: false, keyId: "3fa2c1d0"});
    events.emit("request", {method: "debug_traceCall", durationMs: 1, failed: true, keyId: "3fa2c1d0"});
    events.emit("request", {method: "eth_chainId", durationMs: 1, failed: true});
    events.emit("rateLimited", {requests: 3, keyId: "3fa2c1d0"});
    events.emit("rateLimited", {requests: 1, keyId: "77aa0b1c"});
    events.emit("rateLimited", {requests: 5});
    const text = await registry.metrics();
    expect(text).toContain('xchain_rpc_key_requests_total{key="3fa2c1d0"} 2');
    expect(text).toContain('xchain_rpc_key_errors_total{key="3fa2c1d0"} 1');
    expect(text).toContain('xchain_rpc_key_rate_limited_total{key="3fa2c1d0"} 3');
    expect(text).toContain('xchain_rpc_key_rate_limited_total{key="77aa0b1c"} 1');
    expect(text.match(/^xchain_rpc_key_\w+\{/gm)).toHaveLength(4);
  });
});
