// docs/grafana-dashboard.json plots only metrics the node exports: each metric name in a panel's
// query (a histogram's _bucket/_sum/_count series included) is in the registry.
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {createNodeMetrics} from "../../src/metrics/nodeMetrics.ts";
import {type MetricsSources, registerScrapeGauges} from "../../src/metrics/scrapeGauges.ts";

const root = join(import.meta.dirname, "..", "..", "..", "..");

interface Dashboard {
  panels: {title: string; targets: {expr: string}[]}[];
}

/** Every metric the node registers, listed without a scrape: the gauges' sources are never read. */
function exportedNames(): Set<string> {
  const unread = (): never => {
    throw new Error("a gauge's source is read only when scraped");
  };
  const sources: MetricsSources = {
    head: unread,
    peers: {peerCount: unread},
    syncProgress: unread,
    txpool: {status: unread},
    rpc: {
      get wsConnections() {
        return unread();
      },
      get subscriptionCount() {
        return unread();
      },
      callCacheStats: unread,
      blockCacheStats: unread,
    },
    dbDir: "",
    caches: unread,
    workersHeapUsedBytes: unread,
    stateCollection: unread,
    flatState: unread,
    stateReads: unread,
  };
  const {registry} = createNodeMetrics();
  registerScrapeGauges(registry, sources);
  return new Set(registry.getMetricsAsArray().map((m) => m.name));
}

/** Metric names in a PromQL expression: identifiers of the node's and the process metrics' families. */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\b(?:xchain|process|nodejs)_[a-z0-9_]+/g)].map(([name]) =>
    name.replace(/_(bucket|sum|count)$/, ""),
  );
}

const readDashboard = (): Dashboard =>
  JSON.parse(readFileSync(join(root, "docs", "grafana-dashboard.json"), "utf8")) as Dashboard;

describe("the Grafana dashboard", () => {
  it("references only exported metrics", () => {
    const dashboard = readDashboard();
    const exported = exportedNames();
    const referenced = dashboard.panels.flatMap((p) => p.targets.flatMap((t) => metricNames(t.expr)));
    expect(referenced.length).toBeGreaterThan(20);
    expect(referenced.filter((name) => !exported.has(name))).toEqual([]);
  });

  it("plots every per-key metric of the gateway by key", () => {
    const perKey = [...exportedNames()].filter((name) => name.startsWith("xchain_rpc_key_"));
    expect(perKey.sort()).toEqual([
      "xchain_rpc_key_errors_total",
      "xchain_rpc_key_rate_limited_total",
      "xchain_rpc_key_requests_total",
    ]);
    const byKey = readDashboard()
      .panels.flatMap((p) => p.targets.map((t) => t.expr))
      .filter((expr) => expr.includes("by (key)"))
      .flatMap(metricNames);
    expect(byKey.sort()).toEqual(perKey);
  });
});
