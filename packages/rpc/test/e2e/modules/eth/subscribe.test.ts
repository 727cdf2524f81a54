import {WsClient} from "@xchain/test-utils";
import {toData} from "@xchain/utils";
import {afterEach, beforeEach, describe, expect, it} from "vitest";
import type {SyncStatus} from "../../../../src/index.ts";
import {alice, bob, buildFixture, dave, type Fixture} from "../../../support/fixture.ts";
import {signTx, TestNode} from "../../../support/node.ts";
import {PINGED_TOPIC, probeCall} from "../../../support/probe.ts";
import {reorganize} from "../../../support/reorg.ts";

let node: TestNode;
let fixture: Fixture;
let ws: WsClient;
beforeEach(async () => {
  node = await TestNode.start();
  fixture = await buildFixture(node);
  ws = await WsClient.connect(node.wsUrl);
});
afterEach(async () => {
  ws.close();
  await node.close();
});

const subscribe = async (...params: unknown[]): Promise<string> => {
  const reply = await ws.call("eth_subscribe", params);
  if (reply.error) throw new Error(reply.error.message);
  return reply.result;
};

describe("eth_subscribe", () => {
  it("newHeads: a header object per new block (docs/rpc.md §2.7)", async () => {
    const id = await subscribe("newHeads");
    expect(id).toMatch(/^0x[0-9a-f]{32}$/);
    const block = await node.mine();
    const [notification] = await ws.waitFor(id, 1);
    expect(Object.keys(notification!.result).sort()).toEqual(
      [
        "difficulty",
        "extraData",
        "gasLimit",
        "gasUsed",
        "logsBloom",
        "miner",
        "number",
        "parentHash",
        "receiptsRoot",
        "sha3Uncles",
        "stateRoot",
        "timestamp",
        "transactionsRoot",
        "hash",
      ].sort(),
    );
    expect(notification!.result).toMatchObject({number: "0x4", hash: toData(block.hash())});
  });

  it("newHeads, logs and newPendingTransactions across a reorganization (docs/rpc.md §6)", async () => {
    const heads = await subscribe("newHeads");
    const logs = await subscribe("logs", {address: toData(fixture.contract), topics: [toData(PINGED_TOPIC)]});
    const pending = await subscribe("newPendingTransactions");
    const {f3, f4} = await reorganize(node, fixture);
    // The whole new branch, oldest first.
    expect((await ws.waitFor(heads, 2)).map((n) => n.result.hash)).toEqual([toData(f3.hash()), toData(f4.hash())]);
    const logNotes = await ws.waitFor(logs, 2);
    expect(logNotes.map((n) => [n.result.removed, n.result.blockHash])).toEqual([
      [true, toData(fixture.blocks[2].hash())],
      [false, toData(f3.hash())],
    ]);
    // Block 3's ping left the canonical chain: the txpool takes it back, and it is announced again (docs/rpc.md §3.3).
    expect((await ws.waitFor(pending, 1)).map((n) => n.result)).toEqual([toData(fixture.ping8.hash())]);
  });

  it("newPendingTransactions: the hash of each transaction that becomes pending", async () => {
    const id = await subscribe("newPendingTransactions");
    const tx = signTx(dave, {nonce: 0n, to: alice.address, value: 1n});
    await node.result("eth_sendRawTransaction", [toData(tx.encode())]);
    expect((await ws.waitFor(id, 1))[0]!.result).toBe(toData(tx.hash()));
  });

  it("logs: only the matching ones", async () => {
    const id = await subscribe("logs", {topics: [null, toData(new Uint8Array(32))]});
    const other = await subscribe("logs", {});
    await node.mine({
      transactions: [signTx(bob, {nonce: 2n, to: fixture.contract, gasLimit: 100_000n, data: probeCall.ping(0n)})],
    });
    await ws.waitFor(other, 1);
    expect(ws.notifications.filter((n) => n.subscription === id)).toEqual([]);
  });

  it("syncing: the status object when a sync starts, false when it ends (docs/rpc.md §6)", async () => {
    const listeners = new Set<(status: SyncStatus | undefined) => void>();
    const syncing = await TestNode.start({
      deps: {
        sync: {
          syncStatus: () => undefined,
          onSyncChange: (listener) => {
            listeners.add(listener);
            return () => listeners.delete(listener);
          },
        },
      },
    });
    const client = await WsClient.connect(syncing.wsUrl);
    try {
      const reply = await client.call("eth_subscribe", ["syncing"]);
      const id = reply.result as string;
      for (const listener of listeners) listener({startingBlock: 0, currentBlock: 5, highestBlock: 300});
      for (const listener of listeners) listener(undefined);
      await client.waitFor(id, 2);
      expect(client.notifications.filter((n) => n.subscription === id).map((n) => n.result)).toEqual([
        {startingBlock: "0x0", currentBlock: "0x5", highestBlock: "0x12c"},
        false,
      ]);
      expect((await client.call("eth_unsubscribe", [id])).result).toBe(true);
      expect(listeners.size).toBe(0);
    } finally {
      client.close();
      await syncing.close();
    }
  });

  it("syncing: a node that does not sync sends nothing", async () => {
    expect(await subscribe("syncing")).toMatch(/^0x/);
  });

  it("refuses an unknown type and a filter on other types", async () => {
    expect((await ws.call("eth_subscribe", ["blocks"])).error).toEqual({
      code: -32602,
      message:
        'invalid argument 0 (subscription): expected one of newHeads, logs, newPendingTransactions, syncing, got "blocks"',
    });
    expect((await ws.call("eth_subscribe", ["newHeads", {}])).error?.code).toBe(-32602);
  });

  it("over HTTP answers -32601 with the reason (docs/rpc.md §4.8)", async () => {
    expect(await node.error("eth_subscribe", ["newHeads"])).toEqual({
      code: -32601,
      message: "the method eth_subscribe does not exist/is not available: subscriptions need a WebSocket connection",
    });
    expect((await node.error("eth_unsubscribe", ["0x1"])).code).toBe(-32601);
  });
});

describe("eth_unsubscribe", () => {
  it("ends a subscription: true once, then false", async () => {
    const id = await subscribe("newHeads");
    expect((await ws.call("eth_unsubscribe", [id])).result).toBe(true);
    expect((await ws.call("eth_unsubscribe", [id])).result).toBe(false);
    await node.mine();
    const marker = await subscribe("newHeads");
    await node.mine();
    await ws.waitFor(marker, 1);
    expect(ws.notifications.filter((n) => n.subscription === id)).toEqual([]);
  });

  it("cannot end another connection's subscription", async () => {
    const id = await subscribe("newHeads");
    const other = await WsClient.connect(node.wsUrl);
    try {
      expect((await other.call("eth_unsubscribe", [id])).result).toBe(false);
    } finally {
      other.close();
    }
  });
});
