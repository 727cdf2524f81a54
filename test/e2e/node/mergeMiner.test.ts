// End-to-end: scripts/merge-miner.mjs, a separate process, mines a node whose built-in miner is off
// through JSON-RPC alone: mnr_getWork + mnr_submitBitcoinBlock, then eth_getWork + eth_submitWork; the
// node counts the work and the submissions in its metrics and logs each mnr submission (the miner's events).
import {execFile} from "node:child_process";
import {join} from "node:path";
import {promisify} from "node:util";
import {Transaction} from "@xchain/primitives";
import {bytesToPrefixedHex, keccak256, utf8ToBytes} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const MERGE_MINER = join(import.meta.dirname, "..", "..", "..", "scripts", "merge-miner.mjs");
const COINBASE = `0x${"00".repeat(18)}c0fe`;
let node: RunningNode;

beforeAll(async () => {
  node = await startNode([
    ...["--miner.enabled", "false", "--miner.coinbase", COINBASE],
    ...["--metrics.enabled", "true", "--metrics.port", "0"],
  ]);
});

afterAll(async () => {
  await node?.stop();
});

async function mergeMine(mode: "mnr" | "eth", blocks: number): Promise<string> {
  const args = [MERGE_MINER, "--rpc", node.httpUrl, "--mode", mode, "--blocks", String(blocks)];
  const {stdout} = await promisify(execFile)(process.execPath, args, {timeout: 60_000});
  return stdout;
}

describe("scripts/merge-miner.mjs against a node that does not mine itself", () => {
  it("leaves a transaction pending until a block is merge-mined, through both RPC paths", async () => {
    expect(await rpc(node.httpUrl, "eth_mining")).toBe(false);
    const values = {
      nonce: 0n,
      gasPrice: 0n,
      gasLimit: 21_000n,
      to: new Uint8Array(20).fill(9),
      value: 1n,
      data: new Uint8Array(),
    };
    const raw = bytesToPrefixedHex(Transaction.sign(values, keccak256(utf8ToBytes("cow")), 33).encode());
    const hash = await rpc<string>(node.httpUrl, "eth_sendRawTransaction", [raw]);
    await new Promise((r) => setTimeout(r, 300));
    expect(await rpc(node.httpUrl, "eth_blockNumber")).toBe("0x0");

    const mnr = await mergeMine("mnr", 2);
    expect(mnr.match(/^mined block/gm)).toHaveLength(2);
    expect(await rpc(node.httpUrl, "eth_blockNumber")).toBe("0x2");
    const receipt = await waitForReceipt(node.httpUrl, hash);
    expect(receipt.blockNumber).toBe("0x1");

    const eth = await mergeMine("eth", 2);
    expect(eth.match(/^mined block/gm)).toHaveLength(2);
    expect(await rpc(node.httpUrl, "eth_blockNumber")).toBe("0x4");

    const block = await rpc<Record<string, string>>(node.httpUrl, "eth_getBlockByNumber", ["0x4", false]);
    expect(block.miner).toBe(COINBASE);
    expect(block.bitcoinMergedMiningHeader).toMatch(/^0x[0-9a-f]{160}$/);

    const metricsUrl = node.logs.find((l) => typeof l.metrics === "string")?.metrics as string;
    const metrics = await (await fetch(metricsUrl)).text();
    expect(Number(metrics.match(/^xchain_mm_work_served_total (\d+)$/m)?.[1])).toBeGreaterThanOrEqual(4);
    expect(metrics).toContain('xchain_mm_submissions_total{result="IMPORTED_BEST"} 2\n');
    expect(metrics).toContain('xchain_mm_submissions_total{result="ACCEPTED"} 2\n');
    const submissions = node.logs.filter((l) => l.method === "mnr_submitBitcoinBlock").map((l) => l.msg);
    expect(submissions).toEqual([
      expect.stringMatching(/^mnr_submitBitcoinBlock: block 1 0x[0-9a-f]{8}…[0-9a-f]{4} IMPORTED_BEST$/),
      expect.stringMatching(/^mnr_submitBitcoinBlock: block 2 0x[0-9a-f]{8}…[0-9a-f]{4} IMPORTED_BEST$/),
    ]);
  });
});
