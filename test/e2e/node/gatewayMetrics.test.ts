// End-to-end: with the gateway and metrics on, each API key's requests, errors (a method it is not
// granted included) and requests refused for its rate are counted under its id on /metrics, the
// series the dashboard's API keys panel plots (docs/operations.md §1, §2; docs/gateway.md §3).
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {addGatewayKey} from "../support/gatewayKeys.ts";
import {type RunningNode, startNode, tempDataDir} from "../support/xchainProcess.ts";

let node: RunningNode;
let dataDir: string;

/** `xchain keys add` on the node's data directory: the printed secret and id. */
const addKey = (args: string[]) => addGatewayKey(dataDir, args);

/** POSTs one request with `secret` in the path: the HTTP status. */
async function send(secret: string, method: string): Promise<number> {
  const response = await fetch(`${node.httpUrl}/${secret}`, {
    method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({jsonrpc: "2.0", id: 1, method, params: []}),
  });
  await response.text();
  return response.status;
}

/** A counter's value for `key` in a Prometheus text scrape, 0 when absent. */
function counted(scrape: string, metric: string, key: string): number {
  return Number(new RegExp(`^${metric}\\{key="${key}"\\} (\\d+)$`, "m").exec(scrape)?.[1] ?? 0);
}

beforeAll(async () => {
  dataDir = tempDataDir();
  node = await startNode(["--rpc.gateway.enabled", "--metrics.enabled", "true", "--metrics.port", "0"], dataDir);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe("the gateway's per-key metrics", () => {
  it("count each key's requests, errors and rate refusals, as the dashboard's API keys panel plots them", async () => {
    // Keys added while the node runs are picked up by its keys-file watch.
    const main = await addKey(["--label", "main", "--rps", "10000", "--burst", "10000"]);
    const slow = await addKey(["--label", "slow", "--rps", "1", "--burst", "2"]);
    await expect.poll(() => send(main.secret, "eth_blockNumber"), {timeout: 15_000}).toBe(200);
    await expect.poll(() => send(slow.secret, "eth_blockNumber"), {timeout: 15_000}).toBe(200);

    expect(await send(main.secret, "eth_chainId")).toBe(200);
    expect(await send(main.secret, "evm_mine")).toBe(200); // -32601: not granted the evm namespace
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await send(slow.secret, "eth_chainId"));
    const limited = statuses.filter((s) => s === 429).length;
    expect(limited).toBeGreaterThan(0);

    const metricsUrl = node.logs.find((l) => typeof l.metrics === "string")?.metrics as string;
    const scrape = await (await fetch(metricsUrl)).text();
    expect(counted(scrape, "xchain_rpc_key_requests_total", main.id)).toBe(3);
    expect(counted(scrape, "xchain_rpc_key_errors_total", main.id)).toBe(1);
    expect(counted(scrape, "xchain_rpc_key_rate_limited_total", main.id)).toBe(0);
    expect(counted(scrape, "xchain_rpc_key_requests_total", slow.id)).toBe(1 + statuses.length - limited);
    expect(counted(scrape, "xchain_rpc_key_rate_limited_total", slow.id)).toBe(limited);

    const dashboard = JSON.parse(
      readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "grafana-dashboard.json"), "utf8"),
    ) as {panels: {title: string; targets: {expr: string}[]}[]};
    const panel = dashboard.panels.find((p) => p.title === "API keys (gateway)");
    const plotted = panel?.targets.flatMap((t) => [...t.expr.matchAll(/xchain_[a-z_]+/g)].map(([m]) => m)) ?? [];
    expect(plotted).toHaveLength(3);
    for (const metric of plotted) expect(scrape).toMatch(new RegExp(`^${metric}\\{key="[0-9a-f]+"\\} [1-9]`, "m"));
  });
});
