// End-to-end: the fork cache's writes behind its reads (docs/forking.md §1.2) across a killed node. A fork
// node reads 300 accounts of a real xchain upstream and is killed (SIGKILL) at once, with values still in
// memory or in a batch being written: a new node on the same cache starts (the cache is not damaged) and
// answers every account as the upstream does, fetching again what the kill lost. Stopped cleanly, it writes
// everything it fetched: a third node with --fork.offline answers all 300 from the cache alone.
import {toQuantity} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {NO_INTERVAL_BLOCKS} from "../support/devClients.ts";
import {forkFlags, send} from "../support/forkHelpers.ts";
import {rpc} from "../support/jsonRpc.ts";
import {UpstreamProxy} from "../support/upstreamProxy.ts";
import {type RunningNode, startNode, tempDataDir} from "../support/xchainProcess.ts";

const READS = 300;
/** Account `i`: every third one funded on the upstream before the fork block. */
const address = (i: number) => `0x${(0xf0c000 + i).toString(16).padStart(40, "0")}`;

let upstream: RunningNode;
let proxy: UpstreamProxy;
let proxyUrl: string;
let F: number;
const nodes: RunningNode[] = [];
let cacheDir: string;

beforeAll(async () => {
  upstream = await startNode(NO_INTERVAL_BLOCKS);
  const [from] = await rpc<string[]>(upstream.httpUrl, "eth_accounts");
  for (let i = 0; i < READS; i += 30) await send(upstream.httpUrl, {from, to: address(i), value: toQuantity(i + 1)});
  F = Number(await rpc<string>(upstream.httpUrl, "eth_blockNumber"));
  proxy = new UpstreamProxy(upstream.httpUrl);
  proxyUrl = await proxy.start();
  cacheDir = tempDataDir();
}, 120_000);

afterAll(async () => {
  for (const node of nodes) if (node.process.exitCode === null) await node.stop();
  await proxy?.stop();
  await upstream?.stop();
});

async function forkNode(...more: string[]): Promise<RunningNode> {
  const node = await startNode(forkFlags(proxyUrl, "--fork.block", String(F), "--fork.cacheDir", cacheDir, ...more));
  nodes.push(node);
  return node;
}

/** Every account's balance on `node`, read all at once. */
const balances = (node: RunningNode) =>
  Promise.all(
    Array.from({length: READS}, (_, i) => rpc<string>(node.httpUrl, "eth_getBalance", [address(i), "latest"])),
  );

describe("the fork cache across a killed node", () => {
  it("is read again after a kill, fetching what the kill lost, and holds everything after a clean stop", async () => {
    const expected = await Promise.all(
      Array.from({length: READS}, (_, i) =>
        rpc<string>(upstream.httpUrl, "eth_getBalance", [address(i), toQuantity(F)]),
      ),
    );
    expect(expected.filter((b) => b !== "0x0")).toHaveLength(READS / 30);

    const killed = await forkNode();
    expect(await balances(killed)).toEqual(expected);
    await killed.stop("SIGKILL");

    proxy.reset();
    const next = await forkNode();
    expect(await balances(next)).toEqual(expected);
    // At most the values the kill lost were fetched again.
    expect(proxy.calls.filter((c) => c.method === "eth_getProof").length).toBeLessThanOrEqual(READS);
    await next.stop();

    proxy.reset();
    const offline = await forkNode("--fork.offline");
    expect(await balances(offline)).toEqual(expected);
    expect(proxy.requests).toBe(0);
  }, 120_000);
});
