import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, buildFixture, dave, type Fixture} from "../../../support/fixture.ts";
import {signTx, TestNode} from "../../../support/node.ts";
import {PINGED_TOPIC, STORED_TOPIC} from "../../../support/probe.ts";
import {reorganize} from "../../../support/reorg.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  node = await TestNode.start();
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

describe("eth_newBlockFilter", () => {
  it("collects the hashes of new canonical blocks until polled", async () => {
    const id = await node.result("eth_newBlockFilter");
    expect(id).toMatch(/^0x[1-9a-f][0-9a-f]*$/);
    expect(await node.result("eth_getFilterChanges", [id])).toEqual([]);
    const b4 = await node.mine();
    const b5 = await node.mine();
    expect(await node.result("eth_getFilterChanges", [id])).toEqual([toData(b4.hash()), toData(b5.hash())]);
    expect(await node.result("eth_getFilterChanges", [id])).toEqual([]);
    expect(await node.result("eth_uninstallFilter", [id])).toBe(true);
  });
});

describe("eth_newPendingTransactionFilter", () => {
  it("collects the hashes of transactions that become pending", async () => {
    const id = await node.result("eth_newPendingTransactionFilter");
    const tx = signTx(dave, {nonce: 0n, to: alice.address, value: 1n});
    await node.result("eth_sendRawTransaction", [toData(tx.encode())]);
    expect(await node.result("eth_getFilterChanges", [id])).toEqual([toData(tx.hash())]);
    expect(await node.result("eth_uninstallFilter", [id])).toBe(true);
  });
});

describe("eth_uninstallFilter", () => {
  it("is false for a filter that does not exist; later polls are -32000 `filter not found` (docs/protocol/errors.md)", async () => {
    const id = await node.result("eth_newBlockFilter");
    expect(await node.result("eth_uninstallFilter", [id])).toBe(true);
    expect(await node.result("eth_uninstallFilter", [id])).toBe(false);
    expect(await node.error("eth_getFilterChanges", [id])).toEqual({code: -32000, message: "filter not found"});
  });
});

describe("eth_getFilterChanges", () => {
  it("drops a filter that was not polled within filterTimeoutMs (docs/rpc.md §3.2)", async () => {
    const quick = await TestNode.start({rpc: {filterTimeoutMs: 50}});
    try {
      const id = await quick.result("eth_newBlockFilter");
      await new Promise((r) => setTimeout(r, 200));
      expect(await quick.error("eth_getFilterChanges", [id])).toEqual({code: -32000, message: "filter not found"});
    } finally {
      await quick.close();
    }
  });

  it("wants a QUANTITY id", async () => {
    expect((await node.error("eth_getFilterChanges", ["abc"])).message).toBe(
      "invalid argument 0 (filterId): hex string without 0x prefix",
    );
  });
});

describe("eth_newFilter", () => {
  it("collects matching logs of new blocks, and removed ones again after a reorganization", async () => {
    const reorgNode = await TestNode.start();
    try {
      const f = await buildFixture(reorgNode);
      const id = await reorgNode.result("eth_newFilter", [
        {address: toData(f.contract), topics: [toData(PINGED_TOPIC)]},
      ]);
      const {f3} = await reorganize(reorgNode, f);
      const changes = await reorgNode.result("eth_getFilterChanges", [id]);
      expect(
        changes.map((l: {removed: boolean; blockNumber: string; blockHash: string}) => [
          l.removed,
          l.blockNumber,
          l.blockHash,
        ]),
      ).toEqual([
        [true, "0x3", toData(f.blocks[2].hash())],
        [false, "0x3", toData(f3.hash())],
      ]);
    } finally {
      await reorgNode.close();
    }
  });

  it("takes a range, not a block hash", async () => {
    expect((await node.error("eth_newFilter", [{blockHash: toData(fixture.blocks[0].hash())}])).message).toBe(
      "invalid argument 0 (filter.blockHash): not allowed in eth_newFilter",
    );
  });
});

describe("eth_getFilterLogs", () => {
  it("returns every log the filter's query selects", async () => {
    const id = await node.result("eth_newFilter", [{fromBlock: "0x1", toBlock: "0x3", topics: [toData(STORED_TOPIC)]}]);
    const logs = await node.result("eth_getFilterLogs", [id]);
    expect(logs.map((l: {transactionHash: string}) => l.transactionHash)).toEqual([toData(fixture.store.hash())]);
    const blockFilter = await node.result("eth_newBlockFilter");
    expect(await node.error("eth_getFilterLogs", [blockFilter])).toEqual({
      code: -32000,
      message: "filter is not a log filter",
    });
  });
});
