import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {TestNode} from "../../support/node.ts";
import {RecordingScoring} from "../../support/scoring.ts";

const scoring = new RecordingScoring();
let node: TestNode;
let bare: TestNode;
beforeAll(async () => {
  node = await TestNode.start({deps: {scoring}});
  bare = await TestNode.start();
});
afterAll(async () => {
  await node.close();
  await bare.close();
});

describe("sco_*", () => {
  it("bans, lists and unbans addresses; an invalid one is -32602 naming it", async () => {
    expect(await node.result("sco_banAddress", ["10.0.0.0/8"])).toBeNull();
    expect(await node.result("sco_bannedAddresses")).toEqual(["10.0.0.0/8"]);
    expect(await node.result("sco_unbanAddress", ["10.0.0.0/8"])).toBeNull();
    expect(await node.result("sco_bannedAddresses")).toEqual([]);
    expect(await node.error("sco_banAddress", ["not-an-ip"])).toMatchObject({
      code: -32602,
      message: "invalid banned address not-an-ip",
    });
    expect((await node.error("sco_banAddress", [7])).code).toBe(-32602);
  });

  it("answers the peer list and the reputation summary; clearPeerScoring forgets and lists", async () => {
    expect(await node.result("sco_peerList")).toEqual(scoring.peerList());
    expect(await node.result("sco_reputationSummary")).toEqual(scoring.reputationSummary());
    expect(await node.result("sco_clearPeerScoring", ["127.0.0.1"])).toEqual(scoring.peerList());
    expect(scoring.cleared).toEqual(["127.0.0.1"]);
  });

  it("is -32601 'not available' on a node without a peer-to-peer network", async () => {
    const error = await bare.error("sco_peerList");
    expect(error.code).toBe(-32601);
    expect(error.message).toContain("no peer-to-peer network");
  });
});
