import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {TestNode} from "../../../support/node.ts";

describe("debug_wireProtocolQueueSize", () => {
  let plain: TestNode;
  let withQueue: TestNode;
  let queued = 0;
  beforeAll(async () => {
    plain = await TestNode.start();
    withQueue = await TestNode.start({deps: {wireQueue: {queueSize: () => queued}}});
  });
  afterAll(async () => {
    await plain.close();
    await withQueue.close();
  });

  it("is 0x0 on a node without p2p", async () => {
    expect(await plain.result("debug_wireProtocolQueueSize")).toBe("0x0");
  });

  it("is the p2p layer's count as a QUANTITY, read at each call", async () => {
    expect(await withQueue.result("debug_wireProtocolQueueSize")).toBe("0x0");
    queued = 300;
    expect(await withQueue.result("debug_wireProtocolQueueSize")).toBe("0x12c");
  });

  it("takes no parameters", async () => {
    expect((await plain.error("debug_wireProtocolQueueSize", [1])).code).toBe(-32602);
  });
});
