// End-to-end: a node with `[metrics]` on, scraped as Prometheus would and parsed with a
// Prometheus text-format parser; /health and /ready on the metrics port and the RPC port,
// /ready 503 for a node whose head is old.
import parsePrometheusTextFormat, {type PrometheusFamily} from "parse-prometheus-text-format";
import {afterAll, describe, expect, it} from "vitest";
import WebSocket from "ws";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const running: RunningNode[] = [];

async function start(args: string[]): Promise<{node: RunningNode; metricsUrl: string}> {
  const node = await startNode(["--metrics.enabled", "true", "--metrics.port", "0", ...args]);
  running.push(node);
  const metricsUrl = node.logs.find((l) => typeof l.metrics === "string")?.metrics;
  if (typeof metricsUrl !== "string") throw new Error("no metrics endpoint logged");
  return {node, metricsUrl};
}

afterAll(async () => {
  await Promise.all(running.filter((n) => n.process.exitCode === null).map((n) => n.stop("SIGKILL")));
});

async function scrape(metricsUrl: string): Promise<Map<string, PrometheusFamily>> {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
  return new Map(parsePrometheusTextFormat(await res.text()).map((family) => [family.name, family]));
}

function value(families: Map<string, PrometheusFamily>, name: string, labels: Record<string, string> = {}): number {
  const sample = families.get(name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  // The parser keeps a histogram's buckets but not its labels or count: +Inf is the count.
  return Number(sample?.value ?? sample?.buckets?.["+Inf"] ?? Number.NaN);
}

async function get(url: string): Promise<{status: number; body: Record<string, unknown>}> {
  const res = await fetch(url);
  return {status: res.status, body: (await res.json()) as Record<string, unknown>};
}

describe("metrics", () => {
  it("serves the node's metrics in Prometheus' text format", async () => {
    const {node, metricsUrl} = await start([]);
    await rpc(node.httpUrl, "evm_mine");
    await rpc(node.httpUrl, "evm_mine");
    await rpc(node.httpUrl, "eth_chainId");
    await rpc(node.httpUrl, "eth_getBalance", ["0x0000000000000000000000000000000000000001", "latest"]);
    await rpc(node.httpUrl, "eth_noSuchMethod").catch(() => undefined);
    const before = await scrape(metricsUrl);
    // The node mines on its own every second: the head is read once, then compared to a bound.
    const head = Number.parseInt(await rpc<string>(node.httpUrl, "eth_blockNumber"), 16);
    const after = await scrape(metricsUrl);

    expect(head).toBeGreaterThanOrEqual(2);
    expect(value(before, "xchain_head_block_number")).toBeLessThanOrEqual(head);
    expect(value(after, "xchain_head_block_number")).toBeGreaterThanOrEqual(head);
    expect(value(after, "xchain_blocks_imported_total")).toBeGreaterThanOrEqual(2);
    expect(value(after, "xchain_block_import_duration_seconds")).toBeGreaterThanOrEqual(2);
    expect(value(after, "xchain_head_total_difficulty")).toBeGreaterThan(0);
    expect(value(after, "xchain_head_age_seconds")).toBeLessThan(60);
    expect(value(before, "xchain_rpc_requests_total", {method: "evm_mine"})).toBe(2);
    expect(value(before, "xchain_rpc_requests_total", {method: "eth_chainId"})).toBe(1);
    expect(value(before, "xchain_rpc_requests_total", {method: "unknown"})).toBe(1);
    expect(value(before, "xchain_rpc_errors_total", {method: "unknown"})).toBe(1);
    expect(value(after, "xchain_rpc_requests_total", {method: "eth_blockNumber"})).toBe(1);
    // The parser merges a histogram's labelled series: the text is read for the per-method count.
    const text = await (await fetch(metricsUrl)).text();
    expect(text).toContain('xchain_rpc_request_duration_seconds_count{method="eth_getBalance"} 1\n');
    expect(value(after, "xchain_txpool_pending")).toBe(0);
    expect(value(after, "xchain_peers")).toBe(0);
    expect(value(after, "xchain_syncing")).toBe(0);
    expect(value(after, "xchain_db_size_bytes")).toBeGreaterThan(0);
    expect(after.has("process_cpu_user_seconds_total")).toBe(true);
    // The method label is bounded by the registry: what a caller sends does not become a label.
    expect(after.get("xchain_rpc_requests_total")?.metrics.some((m) => m.labels?.method === "eth_noSuchMethod")).toBe(
      false,
    );
  });

  it("reports every cache's bytes against the byte budget its settings give", async () => {
    const {node, metricsUrl} = await start([
      ...["--state.cacheMb", "40", "--state.codeCacheMb", "8", "--state.readerCacheMb", "12"],
      ...["--chain.logCacheMb", "5", "--db.cacheMb", "6", "--db.writeBufferMb", "3", "--rpc.callWorkers", "1"],
      ...["--txpool.maxPoolBytes", "1000000", "--rpc.callCacheBytes", "2000000", "--rpc.blockCacheBytes", "1000000"],
    ]);
    await rpc(node.httpUrl, "evm_mine");
    await rpc(node.httpUrl, "eth_getBalance", ["0x0000000000000000000000000000000000000001", "latest"]);
    await rpc(node.httpUrl, "eth_getLogs", [{fromBlock: "0x0", toBlock: "latest"}]);
    const MIB = 2 ** 20;
    const budgets: Record<string, number> = {
      "state.trieNodes": 40 * MIB,
      "state.code": 8 * MIB,
      "state.readers": 12 * MIB,
      "assembler.trieNodes": 10 * MIB,
      "assembler.code": 2 * MIB,
      "assembler.readers": 3 * MIB,
      "callWorkers.trieNodes": 10 * MIB,
      "callWorkers.code": 2 * MIB,
      "callWorkers.readers": 3 * MIB,
      "chain.headers": 2048 * 1536,
      "chain.logs": 5 * MIB,
      txpool: 1_000_000,
      "rpc.callAnswers": 2_000_000,
      "rpc.blocks": 1_000_000,
      leveldb: 12 * MIB,
    };
    // The call worker reports its caches once it is ready.
    await expect
      .poll(async () => (await scrape(metricsUrl)).get("xchain_cache_budget_bytes")?.metrics.length, {timeout: 20_000})
      .toBe(Object.keys(budgets).length);
    const families = await scrape(metricsUrl);
    for (const [cache, budget] of Object.entries(budgets)) {
      expect(value(families, "xchain_cache_budget_bytes", {cache}), cache).toBe(budget);
      const bytes = value(families, "xchain_cache_bytes", {cache});
      expect(bytes, cache).toBeGreaterThanOrEqual(0);
      expect(bytes, cache).toBeLessThanOrEqual(budget);
    }
    // The head's state was read and blocks were imported: those caches hold something.
    expect(value(families, "xchain_cache_bytes", {cache: "state.trieNodes"})).toBeGreaterThan(0);
    expect(value(families, "xchain_cache_bytes", {cache: "state.readers"})).toBeGreaterThan(0);
    expect(value(families, "xchain_cache_bytes", {cache: "chain.headers"})).toBeGreaterThan(0);
    expect(value(families, "xchain_cache_bytes", {cache: "leveldb"})).toBeGreaterThan(0);
    expect(value(families, "xchain_call_workers_heap_used_bytes")).toBeGreaterThan(MIB);
  });

  it("counts WebSocket connections and subscriptions", async () => {
    const {node, metricsUrl} = await start([]);
    const ws = new WebSocket(node.wsUrl);
    await new Promise((resolve) => ws.once("open", resolve));
    ws.send(JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"]}));
    await new Promise((resolve) => ws.once("message", resolve));
    const families = await scrape(metricsUrl);
    expect(value(families, "xchain_ws_connections")).toBe(1);
    expect(value(families, "xchain_ws_subscriptions")).toBe(1);
    ws.close();
  });
});

describe("health", () => {
  it("answers /health and /ready on the metrics port and the RPC port", async () => {
    const {node, metricsUrl} = await start([]);
    const base = metricsUrl.replace(/\/metrics$/, "");
    for (const origin of [base, node.httpUrl]) {
      expect(await get(`${origin}/health`)).toEqual({status: 200, body: {status: "ok"}});
      expect(await get(`${origin}/ready`)).toEqual({status: 200, body: {status: "ready"}});
    }
    expect((await fetch(`${base}/nothing`)).status).toBe(404);
    // Other GETs on the RPC port are refused as before.
    expect((await fetch(`${node.httpUrl}/`)).status).toBe(405);
  });

  it("answers /ready 503 with the reason when the head is older than allowed (genesis: still at genesis)", async () => {
    const {node, metricsUrl} = await start(["--miner.enabled", "false", "--metrics.readyMaxHeadAgeSeconds", "1"]);
    const base = metricsUrl.replace(/\/metrics$/, "");
    // Genesis is the head, and its timestamp is long past: the reason says where syncing stands, not
    // the genesis block's age (a later head's age is readiness.test.ts's).
    for (const origin of [base, node.httpUrl]) {
      const ready = await get(`${origin}/ready`);
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe("not ready");
      expect(ready.body.reason).toBe("still at genesis: no peer connected, so syncing has not started");
      expect(await get(`${origin}/health`)).toEqual({status: 200, body: {status: "ok"}});
    }
  });
});
