// A pruned node (state.retainBlocks 4: a collection every two blocks) mining transfers and storage
// changes, killed with SIGKILL again and again while its state collector runs (docs/operations.md §12).
// After every kill `xchain db verify` passes, and once restarted every retained block's state answers
// with the right values; a state older than the window answers the precise STATE_PRUNED error.
import {join} from "node:path";
import {CollectionPhase, readRetentionRecord} from "@xchain/chain";
import {LevelStore} from "@xchain/db";
import {type CompiledContract, compileSolidity} from "@xchain/test-utils";
import {afterAll, describe, expect, it} from "vitest";
import {JsonRpcFault, rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {type RunningNode, runXchain, startNode, tempDataDir} from "../support/xchainProcess.ts";

const RETAIN = 4;
const NODE_FLAGS = [
  ...["--p2p.enabled", "false", "--miner.blockTimeMs", "0", "--state.retainBlocks", `${RETAIN}`],
  ...["--metrics.enabled", "true", "--metrics.port", "0"],
];
/** Kills that must land while a collection is under way (its record not idle), and of them while it sweeps. */
const KILLS_IN_COLLECTION = 8;
const KILLS_IN_SWEEP = 2;
const MAX_ROUNDS = 60;
const SLOTS_PER_FILL = 60;

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Filler {
  function fill(uint256 base, uint256 count, uint256 value) external {
    for (uint256 i = 0; i < count; i++) {
      assembly { sstore(add(base, i), add(value, i)) }
    }
  }
}`;

const hex = (n: bigint | number) => `0x${n.toString(16)}`;

/**
 * What the driver sent: values to fresh addresses, and the filler's slots (`base` onwards set from
 * `value`); `block` once a receipt names it. A transaction sent just before a kill may be mined after
 * the restart (the pool's journal keeps it), so receipts are looked up again before each check.
 */
interface Sent {
  transfers: {hash: string; to: string; value: bigint; block?: number}[];
  fills: {hash: string; base: number; value: number; block?: number}[];
}

/** Sends fills and transfers (instant mining: a block each) until `stop` is set or the node dies. */
async function drive(
  node: RunningNode,
  filler: string,
  sent: Sent,
  state: {stop: boolean; round: number},
): Promise<void> {
  const [from] = await rpc<string[]>(node.httpUrl, "eth_accounts");
  for (let i = 0; !state.stop; i++) {
    try {
      const to = hex(BigInt(state.round * 1_000_000 + i + 1) << 64n).padEnd(42, "0");
      const value = BigInt(1000 + i);
      const transfer = await rpc<string>(node.httpUrl, "eth_sendTransaction", [
        {from, to, value: hex(value), gas: "0x5208"},
      ]);
      const base = (i % 5) * SLOTS_PER_FILL;
      const fillValue = state.round * 10_000 + i * 100;
      const fill = await rpc<string>(node.httpUrl, "eth_sendTransaction", [
        {from, to: filler, data: fillData(base, fillValue), gas: hex(3_000_000)},
      ]);
      sent.transfers.push({hash: transfer, to, value});
      sent.fills.push({hash: fill, base, value: fillValue});
      await waitForReceipt(node.httpUrl, fill);
    } catch {
      return; // the node was killed
    }
  }
}

let compiled: CompiledContract | undefined;
function fillData(base: number, value: number): string {
  compiled ??= compileSolidity(SOURCE).Filler as CompiledContract;
  const selector = Buffer.from(compiled.selectors["fill(uint256,uint256,uint256)"] as Uint8Array).toString("hex");
  const word = (n: number) => n.toString(16).padStart(64, "0");
  return `0x${selector}${word(base)}${word(SLOTS_PER_FILL)}${word(value)}`;
}

/** The oldest block whose state the node serves, read from the error of a query at block 0. */
async function oldestServed(url: string): Promise<number> {
  const error = await rpc(url, "eth_getBalance", ["0x0000000000000000000000000000000000000001", "0x0"]).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JsonRpcFault);
  expect((error as JsonRpcFault).code).toBe(-32000);
  const match = /the oldest block whose state is served is (\d+)/.exec((error as JsonRpcFault).message);
  expect(match, (error as JsonRpcFault).message).not.toBeNull();
  return Number(match![1]);
}

/** Every retained block's state answers, with the values the driver's transactions left. */
async function checkRetainedStates(url: string, filler: string, sent: Sent): Promise<void> {
  const head = Number(await rpc<string>(url, "eth_blockNumber"));
  for (const tx of [...sent.transfers, ...sent.fills]) {
    if (tx.block !== undefined) continue;
    const receipt = await rpc<{blockNumber: string} | null>(url, "eth_getTransactionReceipt", [tx.hash]);
    if (receipt !== null) tx.block = Number(receipt.blockNumber);
  }
  const oldest = await oldestServed(url);
  expect(oldest).toBeGreaterThanOrEqual(head - RETAIN + 1);
  expect(oldest).toBeLessThanOrEqual(head);
  const mined = <T extends {block?: number}>(txs: T[], n: number) =>
    txs.filter((t) => t.block !== undefined && t.block <= n).sort((a, b) => (a.block ?? 0) - (b.block ?? 0));
  const recent = mined(sent.transfers, head).slice(-3);
  for (let n = oldest; n <= head; n++) {
    for (const {to, value, block} of recent) {
      const balance = BigInt(await rpc<string>(url, "eth_getBalance", [to, hex(n)]));
      expect(balance).toBe((block ?? 0) <= n ? value : 0n);
    }
    // The last fill at or below n set slot `base` to its value.
    const fill = mined(sent.fills, n).at(-1);
    if (fill !== undefined) {
      const word = await rpc<string>(url, "eth_getStorageAt", [filler, hex(fill.base), hex(n)]);
      expect(BigInt(word)).toBe(BigInt(fill.value));
    }
  }
}

/** A gauge of the node's metrics (docs/operations.md §1). */
async function gauge(node: RunningNode, name: string): Promise<number> {
  const url = node.logs.find((l) => typeof l.metrics === "string")?.metrics as string;
  const text = await (await fetch(url)).text();
  const match = new RegExp(`^${name} (\\S+)$`, "m").exec(text);
  if (match === null) throw new Error(`no ${name} in the metrics`);
  return Number(match[1]);
}

/** Resolves once the node's state collection is in `phase` (polled on its metrics). */
async function reachPhase(node: RunningNode, phase: CollectionPhase): Promise<void> {
  while ((await gauge(node, "xchain_state_collection_phase")) !== phase) await new Promise(setImmediate);
}

async function recordPhase(dataDir: string): Promise<CollectionPhase> {
  const store = await LevelStore.open(join(dataDir, "db"));
  try {
    return (await readRetentionRecord(store)).phase;
  } finally {
    await store.close();
  }
}

describe("pruning through crashes", () => {
  const dataDir = tempDataDir();
  let node: RunningNode | undefined;
  afterAll(() => node?.stop("SIGKILL"));

  it(`keeps every retained state whole through ${KILLS_IN_COLLECTION} SIGKILLs during state collections (${KILLS_IN_SWEEP} while sweeping)`, {
    timeout: 600_000,
  }, async () => {
    node = await startNode(NODE_FLAGS, dataDir);
    const [from] = await rpc<string[]>(node.httpUrl, "eth_accounts");
    compiled ??= compileSolidity(SOURCE).Filler as CompiledContract;
    const deploy = await rpc<string>(node.httpUrl, "eth_sendTransaction", [
      {from, data: `0x${Buffer.from(compiled.bytecode).toString("hex")}`, gas: hex(1_000_000)},
    ]);
    const filler = (await waitForReceipt(node.httpUrl, deploy)).contractAddress as string;
    const sent: Sent = {transfers: [], fills: []};

    // Rounds alternate between killing while a collection marks and while it sweeps (as its metrics
    // say), a random moment after: where it lands depends on the machine's speed, so rounds go on until
    // enough kills have landed inside collections (the record says where each one did).
    let inCollection = 0;
    let inSweep = 0;
    const enough = () => inCollection >= KILLS_IN_COLLECTION && inSweep >= KILLS_IN_SWEEP;
    for (let round = 0; round < MAX_ROUNDS && !enough(); round++) {
      const running: RunningNode = node;
      const state = {stop: false, round};
      const driving = drive(running, filler, sent, state);
      await reachPhase(running, round % 2 === 0 ? CollectionPhase.Mark : CollectionPhase.Sweep);
      await new Promise((r) => setTimeout(r, Math.random() * 10));
      await running.stop("SIGKILL");
      state.stop = true;
      await driving;
      const phase = await recordPhase(dataDir);
      if (phase !== CollectionPhase.Idle) inCollection++;
      if (phase === CollectionPhase.Sweep) inSweep++;

      const verify = await runXchain(["db", "verify", "--datadir", dataDir], 120_000);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);

      node = await startNode(NODE_FLAGS, dataDir);
      // Transactions sent but not mined before the kill are lost with the node: the checks use receipts.
      await checkRetainedStates(node.httpUrl, filler, sent);
    }
    expect(inCollection).toBeGreaterThanOrEqual(KILLS_IN_COLLECTION);
    expect(inSweep).toBeGreaterThanOrEqual(KILLS_IN_SWEEP);
  });

  it("answers a state query older than the window with the oldest block served, for every state method", async () => {
    const url = node!.httpUrl;
    const oldest = await oldestServed(url);
    expect(oldest).toBeGreaterThan(1);
    expect(await gauge(node!, "xchain_state_oldest_block")).toBe(oldest);
    const old = hex(oldest - 1);
    const address = "0x0000000000000000000000000000000000000001";
    const calls: [string, unknown[]][] = [
      ["eth_getBalance", [address, old]],
      ["eth_getTransactionCount", [address, old]],
      ["eth_getCode", [address, old]],
      ["eth_getStorageAt", [address, "0x0", old]],
      ["eth_call", [{to: address, data: "0x"}, old]],
      ["eth_getProof", [address, [], old]],
    ];
    for (const [method, params] of calls) {
      const error = await rpc(url, method, params).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, method).toBeInstanceOf(JsonRpcFault);
      expect((error as JsonRpcFault).code, method).toBe(-32000);
      expect((error as JsonRpcFault).message, method).toContain(
        `historical state is not available: the state after block ${oldest - 1} was pruned`,
      );
      expect((error as JsonRpcFault).message, method).toContain(`the oldest block whose state is served is ${oldest}`);
    }
    // Tracing a block replays it on its parent's state: the oldest block's own transactions need the one before.
    const block = await rpc<{transactions: string[]}>(url, "eth_getBlockByNumber", [hex(oldest), false]);
    const error = await rpc(url, "debug_traceTransaction", [block.transactions[0], {}]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as JsonRpcFault).message).toContain(`the state after block ${oldest - 1} was pruned`);
  });
});
