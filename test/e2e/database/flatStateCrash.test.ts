// A node mining transfers to fresh addresses (a block each), killed with SIGKILL again and again
// (docs/operations.md §13): after every kill `xchain db verify` passes, flat state included (exact for
// the root it names, or being generated), and once restarted the flat state completes and serves
// every transfer's balance at the head. The crash points inside generation steps are the in-process
// test's (packages/chain/test/flatState.test.ts): a regtest genesis generates in one step.
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import {afterAll, describe, expect, it} from "vitest";
import {rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {type RunningNode, runXchain, startNode, tempDataDir} from "../support/xchainProcess.ts";

const FLAGS = ["--miner.blockTimeMs", "0", "--metrics.enabled", "true", "--metrics.port", "0"];
const ROUNDS = 5;
const hex = (n: bigint | number) => `0x${n.toString(16)}`;

async function metric(node: RunningNode, name: string, labels: Record<string, string> = {}): Promise<number> {
  const url = node.logs.find((l) => typeof l.metrics === "string")?.metrics as string;
  const families = parsePrometheusTextFormat(await (await fetch(url)).text());
  const sample = families
    .find((f) => f.name === name)
    ?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return Number(sample?.value ?? Number.NaN);
}

let node: RunningNode | undefined;
afterAll(() => node?.stop("SIGKILL"));

describe("the flat state across SIGKILLs", () => {
  it("is exact or unused after every kill, and serves the head after each restart", {timeout: 600_000}, async () => {
    const dataDir = tempDataDir();
    node = await startNode(FLAGS, dataDir);
    const mined: {hash: string; to: string; value: bigint}[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const running: RunningNode = node;
      const [from] = await rpc<string[]>(running.httpUrl, "eth_accounts");
      const driving = (async () => {
        for (let i = 0; ; i++) {
          const to = hex((BigInt(round * 10_000 + i + 1) << 80n) | 0xf1a7n).padEnd(42, "0");
          const value = BigInt(1000 + i);
          const hash = await rpc<string>(running.httpUrl, "eth_sendTransaction", [
            {from, to, value: hex(value), gas: "0x5208"},
          ]);
          mined.push({hash, to, value});
        }
      })().catch(() => undefined); // ends with the kill
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 700));
      await running.stop("SIGKILL");
      await driving;

      const verify = await runXchain(["db", "verify", "--datadir", dataDir], 120_000);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      expect(verify.stdout).toMatch(/flat state: (\d+ entries, equal to the state|being generated)/);

      node = await startNode(FLAGS, dataDir);
      const restarted = node;
      while ((await metric(restarted, "xchain_flat_state_progress")) !== 1)
        await new Promise((r) => setTimeout(r, 100));
      const flatBefore = await metric(restarted, "xchain_state_reads_total", {source: "flat"});
      let checked = 0;
      for (const {hash, to, value} of mined) {
        // A transaction sent just before the kill may not have been mined: only receipts count.
        const receipt = await rpc<{status: string} | null>(restarted.httpUrl, "eth_getTransactionReceipt", [hash]);
        if (receipt === null) continue;
        expect(BigInt(await rpc<string>(restarted.httpUrl, "eth_getBalance", [to, "latest"]))).toBe(value);
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
      expect(await metric(restarted, "xchain_state_reads_total", {source: "flat"})).toBeGreaterThan(flatBefore);
    }
    // The last round's node still mines: one more transfer, then its balance.
    const [from] = await rpc<string[]>(node.httpUrl, "eth_accounts");
    const last = await rpc<string>(node.httpUrl, "eth_sendTransaction", [
      {from, to: `0x${"f1a7".repeat(10)}`, value: "0x7", gas: "0x5208"},
    ]);
    await waitForReceipt(node.httpUrl, last);
    expect(await rpc(node.httpUrl, "eth_getBalance", [`0x${"f1a7".repeat(10)}`, "latest"])).toBe("0x7");
  });
});
