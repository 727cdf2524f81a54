// End-to-end: 32 parallel batches of 50 eth_getLogs each against a real node, with about 0.5 MiB
// of logs per query, and the node's resident memory sampled every 50 ms: response bytes are
// counted as they are built and capped per body and across all clients (docs/rpc.md §8), so the
// growth over idle stays bounded, and nothing of it is kept: after a full garbage collection (through
// the node's inspector) the heap is back near its idle size. Then a stop in the middle of such a
// load: the running reads end before the database closes.
import {readFileSync} from "node:fs";
import {compileSolidity} from "@xchain/test-utils";
import {bytesToPrefixedHex} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {connectInspector, type NodeInspector} from "../support/inspector.ts";
import {rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Blobs {
  event Blob(uint256 indexed i, bytes data);
  function emitMany(uint256 n) external {
    bytes memory data = new bytes(256);
    for (uint256 i = 0; i < n; i++) emit Blob(i, data);
  }
}`;

const LOGS_PER_TX = 250;
const TXS = 2;
const BATCHES = 32;
const BATCH_SIZE = 50;
const MIB = 1024 * 1024;
// What the bomb may leave in the heap once collected. Waiting for RSS to come back instead depends on
// V8's idle-time memory reducer and on the machine's load (it failed after 120 s on a quiet run), so
// the test forces the collection and reads the heap.
const KEPT_MAX_BYTES = 16 * MIB;

let node: RunningNode;
let pid: number;
let inspector: NodeInspector;

const rssBytes = (): number => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB$/m);
  if (!line) throw new Error("no VmRSS");
  return Number(line[1]) * 1024;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function send(from: string, tx: Record<string, string>): Promise<Record<string, unknown>> {
  const hash = await rpc<string>(node.httpUrl, "eth_sendTransaction", [{from, gasPrice: "0x0", ...tx}]);
  await rpc(node.httpUrl, "evm_mine");
  return waitForReceipt(node.httpUrl, hash);
}

/** Fires the 32 batches at once; the error codes of their last answers (where a cap stops a batch), counted. */
async function bomb(filter: object): Promise<Record<string, number>> {
  const batch = JSON.stringify(
    Array.from({length: BATCH_SIZE}, (_, id) => ({jsonrpc: "2.0", id, method: "eth_getLogs", params: [filter]})),
  );
  const codes: Record<string, number> = {};
  await Promise.all(
    Array.from({length: BATCHES}, async () => {
      try {
        const response = await fetch(node.httpUrl, {
          method: "POST",
          headers: {"content-type": "application/json"},
          body: batch,
        });
        const body = (await response.json()) as {error?: {code: number}} | {error?: {code: number}}[];
        const code = Array.isArray(body) ? (body.at(-1)?.error?.code ?? "ok") : (body.error?.code ?? "ok");
        codes[code] = (codes[code] ?? 0) + 1;
      } catch {
        codes.dropped = (codes.dropped ?? 0) + 1;
      }
    }),
  );
  return codes;
}

beforeAll(async () => {
  node = await startNode(["--miner.blockTimeMs", "0"], undefined, ["--inspect=127.0.0.1:0"]);
  pid = node.process.pid as number;
  inspector = await connectInspector(node);
  const [from] = await rpc<string[]>(node.httpUrl, "eth_accounts");
  const blobs = compileSolidity(SOURCE).Blobs!;
  const deployed = await send(from!, {data: bytesToPrefixedHex(blobs.bytecode), gas: "0x200000"});
  const contract = deployed.contractAddress as string;
  const call = bytesToPrefixedHex(blobs.selectors["emitMany(uint256)"]!) + LOGS_PER_TX.toString(16).padStart(64, "0");
  for (let i = 0; i < TXS; i++) await send(from!, {to: contract, data: call, gas: "0x4c4b40"});
}, 60_000);

afterAll(async () => {
  inspector?.close();
  if (node.process.exitCode === null) await node.stop("SIGKILL");
});

describe("32 parallel eth_getLogs batches", () => {
  it("keep the node's RSS growth under 300 MiB, and leave nothing behind in its heap", async () => {
    const filter = {fromBlock: "0x0", toBlock: "latest"};
    const logs = await rpc<unknown[]>(node.httpUrl, "eth_getLogs", [filter]);
    expect(logs).toHaveLength(LOGS_PER_TX * TXS);
    const perQuery = JSON.stringify(logs).length;
    // The first query filled the caches a query keeps (decoded logs, their JSON): idle includes them.
    const idleHeap = await inspector.heapUsedAfterGc();
    const idle = rssBytes();
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssBytes());
    }, 50);
    let codes: Record<string, number>;
    try {
      codes = await bomb(filter);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, rssBytes());
    const afterHeap = await inspector.heapUsedAfterGc();
    const mib = (bytes: number) => (bytes / MIB).toFixed(1);
    console.log(
      `getLogs bomb (${BATCHES}x${BATCH_SIZE}, ${(perQuery / MIB).toFixed(2)} MiB per query): RSS idle ${mib(idle)} MiB, ` +
        `peak ${mib(peak)} MiB (+${mib(peak - idle)}); heap after a full collection ${mib(idleHeap)} MiB before, ` +
        `${mib(afterHeap)} MiB after; answers ${JSON.stringify(codes)}`,
    );
    // Every batch stops at a cap, its remaining items answered in place with their ids: over
    // maxResponseBytes (-32011) or past maxInFlightResponseBytes (-32005) (docs/rpc.md §8).
    expect(Object.keys(codes).every((code) => code === "-32011" || code === "-32005")).toBe(true);
    expect(peak - idle).toBeLessThan(300 * MIB);
    expect(afterHeap - idleHeap).toBeLessThan(KEPT_MAX_BYTES);
    // The node still answers.
    expect(await rpc(node.httpUrl, "eth_chainId")).toBe("0x21");
    // An attached inspector would hold the stop of the next test.
    inspector.close();
  }, 60_000);

  it("stops cleanly in the middle of the load: no read after the database closed", async () => {
    const load = bomb({fromBlock: "0x0", toBlock: "latest"});
    await sleep(100);
    const exit = await node.stop("SIGTERM");
    await load;
    expect(exit.code).toBe(0);
    expect(`${exit.stdout}${exit.stderr}`).not.toContain("LEVEL_DATABASE_NOT_OPEN");
    expect(`${exit.stdout}${exit.stderr}`).not.toMatch(/"level":(50|60)/);
  }, 20_000);
});
