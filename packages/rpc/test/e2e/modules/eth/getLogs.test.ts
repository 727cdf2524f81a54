import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, bob, buildFixture, type Fixture} from "../../../support/fixture.ts";
import {TestNode} from "../../../support/node.ts";
import {PINGED_TOPIC, STORED_TOPIC, topic} from "../../../support/probe.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  // Small limits, so that the fixture's three blocks exercise them (docs/rpc.md §8 at scale: 2,000 / 10,000).
  node = await TestNode.start({rpc: {logsMaxBlockRange: 2, logsMaxResults: 2}});
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

const getLogs = async (filter: object) =>
  ((await node.result("eth_getLogs", [filter])) as {blockNumber: string; topics: string[]}[]).map(
    (l) => `${Number(l.blockNumber)}:${l.topics[0] === toData(STORED_TOPIC) ? "stored" : "pinged"}`,
  );

describe("eth_getLogs", () => {
  it("returns the logs of the latest block by default", async () => {
    expect(await getLogs({})).toEqual(["3:pinged"]);
  });

  it("matches addresses and topics by position (docs/rpc.md §4.5)", async () => {
    const range = {fromBlock: "0x2", toBlock: "latest"};
    const contract = toData(fixture.contract);
    expect(await getLogs({...range, address: contract})).toEqual(["2:stored", "2:pinged", "3:pinged"]);
    expect(await getLogs({...range, address: [toData(alice.address), contract]})).toHaveLength(3);
    expect(await getLogs({...range, address: toData(alice.address)})).toEqual([]);
    expect(await getLogs({...range, topics: []})).toHaveLength(3);
    expect(await getLogs({...range, topics: [toData(STORED_TOPIC)]})).toEqual(["2:stored"]);
    expect(await getLogs({...range, topics: [null, toData(topic(alice.address))]})).toEqual(["2:stored"]);
    expect(await getLogs({...range, topics: [null, toData(topic(bob.address))]})).toEqual([]);
    expect(await getLogs({...range, topics: [[toData(STORED_TOPIC), toData(PINGED_TOPIC)]]})).toHaveLength(3);
    expect(await getLogs({...range, topics: [toData(STORED_TOPIC), null, toData(topic(42n))]})).toEqual(["2:stored"]);
    // A filter with two positions needs two topics: Pinged has one.
    expect(await getLogs({...range, topics: [toData(PINGED_TOPIC), null]})).toEqual([]);
  });

  it("returns the full log objects", async () => {
    const [log] = await node.result("eth_getLogs", [
      {fromBlock: "0x2", toBlock: "0x2", topics: [toData(PINGED_TOPIC)]},
    ]);
    expect(log).toEqual({
      removed: false,
      logIndex: "0x1",
      transactionIndex: "0x1",
      transactionHash: toData(fixture.ping.hash()),
      blockHash: toData(fixture.blocks[1].hash()),
      blockNumber: "0x2",
      address: toData(fixture.contract),
      data: toData(topic(7n)),
      topics: [toData(PINGED_TOPIC)],
    });
  });

  it("takes a block hash instead of a range, never both (docs/rpc.md §4.5)", async () => {
    expect(await getLogs({blockHash: toData(fixture.blocks[1].hash())})).toEqual(["2:stored", "2:pinged"]);
    expect(await getLogs({blockhash: toData(fixture.blocks[2].hash())})).toEqual(["3:pinged"]);
    expect(await node.error("eth_getLogs", [{blockHash: toData(fixture.blocks[1].hash()), fromBlock: "0x1"}])).toEqual({
      code: -32602,
      message: "invalid argument 0 (filter): blockHash excludes fromBlock and toBlock",
    });
    expect((await node.error("eth_getLogs", [{blockHash: `0x${"88".repeat(32)}`}])).code).toBe(-32000);
  });

  it("has no cap within the block range limit; past it at most logsMaxResults logs (docs/rpc.md §8)", async () => {
    expect(await getLogs({fromBlock: "0x2", toBlock: "0x3"})).toHaveLength(3);
    expect(await node.error("eth_getLogs", [{fromBlock: "0x0", toBlock: "latest"}])).toEqual({
      code: -32005,
      message: "query returned more than 2 results; query at most 2 blocks at a time",
    });
    expect(await getLogs({fromBlock: "0x0", toBlock: "0x20", topics: [toData(STORED_TOPIC)]})).toEqual(["2:stored"]);
  });

  it("refuses bad filters", async () => {
    expect((await node.error("eth_getLogs", [{fromBlock: "0x3", toBlock: "0x1"}])).message).toBe(
      "invalid argument 0 (filter): fromBlock is after toBlock",
    );
    expect((await node.error("eth_getLogs", [{topics: [null, null, null, null, null]}])).message).toBe(
      "invalid argument 0 (filter.topics): at most 4 topic positions",
    );
    expect((await node.error("eth_getLogs", [{topics: [["0x12"]]}])).message).toBe(
      "invalid argument 0 (filter.topics[0][0]): hex string has length 2, want 64",
    );
    expect((await node.error("eth_getLogs", [{address: ["0x12"]}])).message).toBe(
      "invalid argument 0 (filter.address[0]): hex string has length 2, want 40",
    );
    expect((await node.error("eth_getLogs", ["latest"])).message).toBe(
      "invalid argument 0 (filter): expected an object, got string",
    );
  });
});
