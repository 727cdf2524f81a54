// End-to-end: one client cannot lock the others out of filters (docs/rpc.md §8). Over WebSocket
// a connection is one client: one fills its `maxFiltersPerClient` (100) and gets -32005 naming the
// per-client cap, while another connection and an HTTP client still install filters; uninstalling
// one frees its slot. Subscriptions are counted apart from polled filters.
import {WsClient} from "@xchain/test-utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const INSTALLS = ["eth_newBlockFilter", "eth_newPendingTransactionFilter", "eth_newFilter"] as const;
const install = (client: WsClient, i: number) => {
  const method = INSTALLS[i % INSTALLS.length] as string;
  return client.call(method, method === "eth_newFilter" ? [{}] : []);
};

let node: RunningNode;
let greedy: WsClient;
let other: WsClient;
beforeAll(async () => {
  node = await startNode();
  greedy = await WsClient.connect(node.wsUrl);
  other = await WsClient.connect(node.wsUrl);
});
afterAll(async () => {
  greedy?.close();
  other?.close();
  await node?.stop();
});

describe("per-client filter caps on a default node", () => {
  it("stops one WebSocket client at 100 filters while others still install theirs", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      const answer = await install(greedy, i);
      expect(answer.error).toBeUndefined();
      ids.push(answer.result as string);
    }
    for (let i = 0; i < INSTALLS.length; i++) {
      expect((await install(greedy, i)).error).toEqual({
        code: -32005,
        message: "limit exceeded: 100 filters per client",
      });
    }

    const theirs = await other.call("eth_newBlockFilter");
    expect(theirs.result).toMatch(/^0x[0-9a-f]+$/);
    expect(await rpc<string>(node.httpUrl, "eth_newPendingTransactionFilter")).toMatch(/^0x[0-9a-f]+$/);
    expect((await greedy.call("eth_subscribe", ["newHeads"])).result).toMatch(/^0x[0-9a-f]{32}$/);

    expect((await greedy.call("eth_uninstallFilter", [ids[0]])).result).toBe(true);
    expect((await greedy.call("eth_newBlockFilter")).result).toMatch(/^0x[0-9a-f]+$/);
    expect((await greedy.call("eth_newBlockFilter")).error?.code).toBe(-32005);
    expect((await greedy.call("eth_getFilterChanges", [ids[1]])).result).toEqual([]);
  });
});
