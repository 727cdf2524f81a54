/**
 * `safe` and `finalized` (docs/rpc.md §4.3) through every kind of method that takes a block tag:
 * with `rpc.safeDepth` 3 and `rpc.finalizedDepth` 5, at head 7 they name blocks 4 and 2 (one empty
 * block, then the fixture: block 2 deploys the probe, block 3 stores 42, pays dave 5 wei and logs,
 * block 4 pings 8; three empty blocks on top); on a chain shorter than the depth, genesis.
 */
import {toData, toQuantity} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, bob, buildFixture, dave, type Fixture} from "../../../support/fixture.ts";
import {signTx, TestNode} from "../../../support/node.ts";
import {probeCall} from "../../../support/probe.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  node = await TestNode.start({rpc: {safeDepth: 3, finalizedDepth: 5}});
});
afterAll(() => node?.close());

const SLOT0 = toData(new Uint8Array(32));

describe("safe and finalized block tags", () => {
  it("name genesis while the chain is shorter than their depth", async () => {
    await node.mine();
    const genesis = await node.result("eth_getBlockByNumber", ["0x0", false]);
    expect((await node.result("eth_getBlockByNumber", ["safe", false])).hash).toBe(genesis.hash);
    expect((await node.result("eth_getBlockByNumber", ["finalized", false])).hash).toBe(genesis.hash);
    // Three blocks then (the fixture on top of this one), and three more: head 7, safe 4, finalized 2.
    fixture = await buildFixture(node);
    for (let i = 0; i < 3; i++) await node.mine();
    expect(node.chain.head().number).toBe(7);
  });

  it("name the head minus their depth in the block methods", async () => {
    const safe = await node.result("eth_getBlockByNumber", ["safe", false]);
    const finalized = await node.result("eth_getBlockByNumber", ["finalized", true]);
    expect(safe).toEqual(await node.result("eth_getBlockByNumber", ["0x4", false]));
    expect(finalized).toEqual(await node.result("eth_getBlockByNumber", ["0x2", true]));
    expect(await node.result("eth_getBlockTransactionCountByNumber", ["finalized"])).toBe(
      await node.result("eth_getBlockTransactionCountByNumber", ["0x2"]),
    );
    expect(await node.result("xchain_getRawBlockHeaderByNumber", ["safe"])).toBe(
      await node.result("xchain_getRawBlockHeaderByNumber", ["0x4"]),
    );
  });

  it("read the state after that block in the state methods, eth_call and eth_getProof", async () => {
    // Block 2 (finalized) deployed the probe: its slot 0 is stored in block 3, dave is paid in block 3.
    const contract = toData(fixture.contract);
    expect(await node.result("eth_getStorageAt", [contract, SLOT0, "finalized"])).toBe(SLOT0);
    expect(BigInt(await node.result("eth_getStorageAt", [contract, SLOT0, "safe"]))).toBe(42n);
    const daveAt = (block: unknown) => node.result("eth_getBalance", [toData(dave.address), block]);
    expect(BigInt(await daveAt("safe")) - BigInt(await daveAt("finalized"))).toBe(5n);
    expect(await daveAt({blockNumber: "safe"})).toBe(await daveAt("0x4"));
    expect(await node.result("eth_getTransactionCount", [toData(alice.address), "finalized"])).toBe("0x1");
    expect(await node.result("eth_getCode", [contract, "finalized"])).toBe(
      await node.result("eth_getCode", [contract, "latest"]),
    );
    const readValue = {to: contract, data: toData(probeCall.value())};
    expect(await node.result("eth_call", [readValue, "finalized"])).toBe(SLOT0);
    expect(BigInt(await node.result("eth_call", [readValue, "safe"]))).toBe(42n);
    const proof = await node.result("eth_getProof", [contract, ["0x0"], "finalized"]);
    expect(proof.storageProof).toEqual([{key: "0x0", value: "0x0", proof: []}]);
  });

  it("bound eth_getLogs ranges", async () => {
    const logsUpTo = async (toBlock: string, fromBlock = "earliest") =>
      (await node.result("eth_getLogs", [{fromBlock, toBlock}])).map((l: {blockNumber: string}) => l.blockNumber);
    expect(await logsUpTo("finalized")).toEqual([]);
    const upToSafe = await logsUpTo("safe");
    expect(upToSafe).toEqual(await logsUpTo("0x4"));
    expect(upToSafe).toContain("0x3");
    expect(upToSafe).toContain("0x4");
    expect(await logsUpTo("latest", "safe")).toEqual(["0x4"]);
  });

  it("name the block traced by trace_block and debug_traceBlockByNumber", async () => {
    expect(await node.result("trace_block", ["safe"])).toEqual(await node.result("trace_block", ["0x4"]));
    expect(await node.result("debug_traceBlockByNumber", ["finalized"])).toEqual(
      await node.result("debug_traceBlockByNumber", ["0x2"]),
    );
    const filtered = await node.result("trace_filter", [{fromBlock: "finalized", toBlock: "safe"}]);
    expect(new Set(filtered.map((t: {blockNumber: number}) => t.blockNumber))).toEqual(new Set([2, 3, 4]));
  });

  it("bound a log filter against the head that brings each log", async () => {
    const untilSafe = await node.result("eth_newFilter", [{toBlock: "safe"}]);
    const fromSafe = await node.result("eth_newFilter", [{fromBlock: "safe"}]);
    const ping = signTx(bob, {nonce: 2n, to: fixture.contract, gasLimit: 100_000n, data: probeCall.ping(9n)});
    await node.mine({transactions: [ping]});
    // The log is in the new head, 3 blocks above the new safe block.
    expect(await node.result("eth_getFilterChanges", [untilSafe])).toEqual([]);
    const changes = await node.result("eth_getFilterChanges", [fromSafe]);
    expect(changes.map((l: {blockNumber: string}) => l.blockNumber)).toEqual([toQuantity(8)]);
  });
});
