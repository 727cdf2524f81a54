import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {TestNode} from "../../support/node.ts";

let node: TestNode;
beforeAll(async () => {
  node = await TestNode.start();
});
afterAll(() => node.close());

describe("net_version", () => {
  it("is the chain id in decimal (docs/protocol/networks.md §1)", async () => {
    expect(await node.result("net_version")).toBe("33");
  });
});

describe("net_listening", () => {
  it("is false on a node without p2p", async () => {
    expect(await node.result("net_listening")).toBe(false);
  });
});

describe("net_peerCount", () => {
  it("is 0x0 on a node without p2p", async () => {
    expect(await node.result("net_peerCount")).toBe("0x0");
  });
});

describe("net_peerList", () => {
  it("is empty on a node without p2p", async () => {
    expect(await node.result("net_peerList")).toEqual([]);
  });
});
