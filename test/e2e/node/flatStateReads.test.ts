// End-to-end: state reads at the head come from the flat state (docs/operations.md §13), not only
// right answers: `xchain_state_reads_total{source}` counts how the readers' cache misses were read,
// on the main thread (eth_getBalance, eth_getStorageAt) and in the call workers (eth_call).
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import {afterAll, describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const running: RunningNode[] = [];
afterAll(async () => {
  await Promise.all(running.filter((n) => n.process.exitCode === null).map((n) => n.stop("SIGKILL")));
});

async function metric(metricsUrl: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const families = parsePrometheusTextFormat(await (await fetch(metricsUrl)).text());
  const sample = families
    .find((f) => f.name === name)
    ?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return Number(sample?.value ?? Number.NaN);
}

/** Polls until `read` passes `done` (the call workers report their counts every few seconds). */
async function until(read: () => Promise<number>, done: (n: number) => boolean): Promise<number> {
  for (;;) {
    const n = await read();
    if (done(n)) return n;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const address = (i: number) => `0x${(0xf1a7_0000 + i).toString(16).padStart(40, "0")}`;
const READS = 20;

describe("the flat state", () => {
  it("serves eth_getBalance, eth_getStorageAt and eth_call at the head", {timeout: 120_000}, async () => {
    // Without the trie-node cache, no read can be answered by the trie in memory before the flat state.
    const node = await startNode([
      "--metrics.enabled",
      "true",
      "--metrics.port",
      "0",
      "--rpc.callWorkers",
      "1",
      "--state.cacheMb",
      "0",
    ]);
    running.push(node);
    const metricsUrl = node.logs.find((l) => typeof l.metrics === "string")?.metrics as string;
    const flat = () => metric(metricsUrl, "xchain_state_reads_total", {source: "flat"});
    const trie = () => metric(metricsUrl, "xchain_state_reads_total", {source: "trie"});
    // Generated at start from the genesis: complete once the progress reads 1.
    await until(
      () => metric(metricsUrl, "xchain_flat_state_progress"),
      (p) => p === 1,
    );

    const flatBefore = await flat();
    const trieBefore = await trie();
    for (let i = 0; i < READS; i++) {
      expect(await rpc(node.httpUrl, "eth_getBalance", [address(i), "latest"])).toBe("0x0");
      expect(await rpc(node.httpUrl, "eth_getStorageAt", [address(1000 + i), "0x1", "latest"])).toBe(
        `0x${"0".repeat(64)}`,
      );
    }
    // Each address and slot was read once, from the flat state (a storage read of a missing account needs no more).
    const afterState = await until(flat, (n) => n >= flatBefore + 2 * READS);
    for (let i = 0; i < READS; i++) {
      expect(await rpc(node.httpUrl, "eth_call", [{to: address(2000 + i), data: "0x"}, "latest"])).toBe("0x");
    }
    // The worker reads each callee (and the caller, once per head) from the flat state.
    await until(flat, (n) => n >= afterState + READS);
    expect((await trie()) - trieBefore).toBeLessThan(READS);
  });
});
