/**
 * History at or below the fork block (docs/forking.md §5): a node forked at block F of a live upstream
 * node (in-process, over HTTP) answers blocks, transactions, receipts, traces and logs at or below F, state
 * below F and hashes it does not hold with exactly the upstream's JSON; its own blocks above F locally;
 * eth_getLogs across F as the upstream's logs then its own; and once the upstream is gone, what it kept.
 */
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import type {Block, Transaction} from "@xchain/primitives";
import {toData, toQuantity} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, bob, buildFixture, carol, type Fixture} from "../../support/fixture.ts";
import {type ForkNode, startForkNode} from "../../support/forkNode.ts";
import {signTx, TestNode} from "../../support/node.ts";
import {probeCall} from "../../support/probe.ts";

/** The fork block: the fixture's blocks 1–3 and block 4 are the upstream's history. */
const F = 4;

let upstream: TestNode;
let fixture: Fixture;
/** The upstream's blocks 4 (F) and 5 (above F: not the fork's). */
let upstreamBlocks: {four: Block; five: Block};
let fork: ForkNode;
/** The fork's own blocks 5 and 6. */
let localBlocks: Block[];
let localPings: Transaction[];

const hex = (bytes: Uint8Array) => toData(bytes);
const ping = (nonce: bigint, n: bigint) =>
  signTx(bob, {nonce, to: fixture.contract, gasLimit: 100_000n, data: probeCall.ping(n)});

beforeAll(async () => {
  upstream = await TestNode.start();
  fixture = await buildFixture(upstream);
  const four = await upstream.mine({transactions: [ping(2n, 9n)]});
  const five = await upstream.mine({transactions: [ping(3n, 10n)]});
  upstreamBlocks = {four, five};
  fork = await startForkNode(upstream, F, mkdtempSync(join(tmpdir(), "xchain-fork-history-")));
  localPings = [ping(3n, 11n), ping(4n, 12n)];
  localBlocks = [];
  for (const tx of localPings) {
    await fork.node.result("eth_sendRawTransaction", [hex(tx.encode())]);
    await fork.node.result("evm_mine", []);
    localBlocks.push((await fork.node.chain.getBlockByNumber(fork.node.chain.head().number)) as Block);
  }
});

afterAll(async () => {
  await fork?.node.close();
  await fork?.source.close();
  await upstream?.close();
});

/** Requests whose answer is the upstream's (the fork holds nothing below F, and no transaction of F). */
function upstreamRequests(): [string, unknown[]][] {
  const b2 = hex(fixture.blocks[1].hash());
  const contract = hex(fixture.contract);
  return [
    ["eth_getBlockByNumber", ["0x2", true]],
    ["eth_getBlockByNumber", [toQuantity(F), false]],
    ["eth_getBlockByNumber", ["earliest", false]],
    ["eth_getBlockByHash", [b2, true]],
    // A hash the fork does not hold: the upstream's block above F.
    ["eth_getBlockByHash", [hex(upstreamBlocks.five.hash()), false]],
    ["eth_getBlockTransactionCountByNumber", ["0x2"]],
    ["eth_getBlockTransactionCountByHash", [b2]],
    ["eth_getTransactionByBlockNumberAndIndex", ["0x2", "0x1"]],
    ["eth_getTransactionByBlockHashAndIndex", [b2, "0x0"]],
    ["eth_getUncleCountByBlockNumber", ["0x2"]],
    ["eth_getUncleCountByBlockHash", [b2]],
    ["eth_getUncleByBlockNumberAndIndex", ["0x2", "0x0"]],
    ["eth_getTransactionByHash", [hex(fixture.ping.hash())]],
    ["eth_getTransactionByHash", [hex(upstreamBlocks.five.transactions[0]!.hash())]],
    ["eth_getTransactionReceipt", [hex(fixture.store.hash())]],
    ["eth_getTransactionReceipt", [hex(upstreamBlocks.four.transactions[0]!.hash())]],
    ["eth_getBlockReceipts", ["0x2"]],
    ["eth_getBlockReceipts", [toQuantity(F)]],
    ["debug_traceTransaction", [hex(fixture.store.hash())]],
    ["debug_traceBlockByNumber", ["0x2"]],
    ["debug_traceBlockByHash", [b2]],
    ["trace_transaction", [hex(fixture.ping.hash())]],
    ["trace_block", ["0x2"]],
    ["trace_filter", [{fromBlock: "0x1", toBlock: toQuantity(F)}]],
    ["eth_getBalance", [hex(carol.address), "0x1"]],
    ["eth_getBalance", [hex(alice.address), {blockHash: b2}]],
    ["eth_getCode", [contract, "0x1"]],
    ["eth_getStorageAt", [contract, "0x0", "0x1"]],
    ["eth_getStorageAt", [contract, "0x0", "0x3"]],
    ["eth_getTransactionCount", [hex(bob.address), "0x2"]],
    ["eth_call", [{to: contract, data: hex(probeCall.value())}, "0x1"]],
    ["eth_call", [{to: contract, data: hex(probeCall.value())}, "0x2"]],
    ["eth_getProof", [contract, ["0x0"], "0x3"]],
    ["eth_getProof", [contract, ["0x0"], toQuantity(F)]],
    ["xchain_getStorageBytesAt", [contract, `0x${"0".repeat(64)}`, "0x2"]],
    ["xchain_getRawBlockHeaderByNumber", ["0x2"]],
    ["xchain_getRawBlockHeaderByHash", [b2]],
    ["xchain_getRawTransactionReceiptByHash", [hex(fixture.store.hash())]],
    ["xchain_getTransactionReceiptNodesByHash", [b2, hex(fixture.store.hash())]],
    ["eth_getLogs", [{fromBlock: "0x0", toBlock: toQuantity(F)}]],
    ["eth_getLogs", [{blockHash: b2}]],
  ];
}

describe("a forked node's history at or below the fork block", () => {
  it("answers each forwarded method with exactly the upstream's JSON", async () => {
    for (const [method, params] of upstreamRequests()) {
      const [mine, theirs] = await Promise.all([fork.node.call(method, params), upstream.call(method, params)]);
      expect(theirs.error, method).toBeUndefined();
      expect(mine, `${method} ${JSON.stringify(params)}`).toStrictEqual(theirs);
    }
  });

  it("relays the upstream's error answer as it came", async () => {
    const request: [string, unknown[]] = [
      "eth_call",
      [{to: hex(fixture.contract), data: hex(probeCall.fail())}, "0x2"],
    ];
    const theirs = await upstream.call(...request);
    expect(theirs.error?.message).toContain("nope");
    expect(await fork.node.call(...request)).toStrictEqual(theirs);
  });

  it("answers its own blocks above F, their transactions and its state locally", async () => {
    const [five, six] = localBlocks as [Block, Block];
    expect(five.hash()).not.toEqual(upstreamBlocks.five.hash());
    const byNumber = await fork.node.result("eth_getBlockByNumber", ["0x5", false]);
    expect([byNumber.hash, byNumber.parentHash]).toEqual([hex(five.hash()), hex(upstreamBlocks.four.hash())]);
    expect((await fork.node.result("eth_getBlockByHash", [hex(six.hash()), false])).number).toBe("0x6");
    expect((await fork.node.result("eth_getBlockByNumber", ["latest", false])).hash).toBe(hex(six.hash()));
    const tx = await fork.node.result("eth_getTransactionByHash", [hex(localPings[0]!.hash())]);
    expect([tx.blockHash, tx.blockNumber]).toEqual([hex(five.hash()), "0x5"]);
    const receipt = await fork.node.result("eth_getTransactionReceipt", [hex(localPings[1]!.hash())]);
    expect([receipt.blockHash, receipt.status]).toEqual([hex(six.hash()), "0x1"]);
    // The state at F is the fork's own (the upstream's through the base): bob's nonce, then his pings.
    const nonce = (block: string) => fork.node.result("eth_getTransactionCount", [hex(bob.address), block]);
    expect([await nonce(toQuantity(F)), await nonce("latest")]).toEqual(["0x3", "0x5"]);
  });

  it("concatenates the upstream's logs up to F and its own above F for a range across F", async () => {
    const filter = {address: hex(fixture.contract)};
    const theirs = await upstream.result("eth_getLogs", [{...filter, fromBlock: "0x1", toBlock: toQuantity(F)}]);
    const own = await fork.node.result("eth_getLogs", [{...filter, fromBlock: toQuantity(F + 1), toBlock: "latest"}]);
    expect(own.map((log: {blockHash: string}) => log.blockHash)).toEqual(localBlocks.map((b) => hex(b.hash())));
    const across = await fork.node.result("eth_getLogs", [{...filter, fromBlock: "0x1"}]);
    expect(across).toStrictEqual([...theirs, ...own]);
    expect(theirs.length).toBeGreaterThan(0);
  });

  it("refuses a proof of its own state above F, and a trace_filter across F, precisely", async () => {
    const proof = await fork.node.error("eth_getProof", [hex(fixture.contract), [], "latest"]);
    expect(proof.code).toBe(-32000);
    expect(proof.message).toMatch(/proof/i);
    const traces = await fork.node.error("trace_filter", [{fromBlock: "0x1", toBlock: "latest"}]);
    expect(traces.code).toBe(-32602);
    expect(traces.message).toContain(`fork block ${F}`);
  });

  // Last: it stops the upstream.
  it("answers what it kept and its own blocks once the upstream is gone, and fails what it needs precisely", async () => {
    const kept = await fork.node.call("eth_getBlockByNumber", ["0x2", true]);
    await upstream.close();
    expect(await fork.node.call("eth_getBlockByNumber", ["0x2", true])).toStrictEqual(kept);
    expect((await fork.node.result("eth_getBlockByNumber", ["0x6", false])).hash).toBe(hex(localBlocks[1]!.hash()));
    const error = await fork.node.error("eth_getBalance", [hex(alice.address), "0x3"]);
    expect(error.code).toBe(-32000);
    expect(error.message).toContain(upstream.url);
  });
});
