// End-to-end: one client cannot lock the others out of filters (docs/rpc.md §8). Over WebSocket
// a connection is one client: one fills its `maxFiltersPerClient` (100) and gets -32005 naming the
// per-client cap, while another connection and an HTTP client still install filters; uninstalling
// one frees its slot. Subscriptions are counted apart from polled filters.
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import WebSocket from "ws";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

type Answer = {result?: unknown; error?: {code: number; message: string}};

/** One WebSocket connection that answers requests in order. */
class WsRpc {
  private nextId = 1;
  private readonly waiting = new Map<number, (answer: Answer) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on("message", (data) => {
      const answer = JSON.parse(String(data)) as Answer & {id?: number};
      if (typeof answer.id === "number") this.waiting.get(answer.id)?.(answer);
    });
  }

  static open(url: string): Promise<WsRpc> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.once("open", () => resolve(new WsRpc(socket)));
      socket.once("error", reject);
    });
  }

  call(method: string, params: unknown[] = []): Promise<Answer> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.socket.send(JSON.stringify({jsonrpc: "2.0", id, method, params}));
    });
  }

  close(): void {
    this.socket.close();
  }
}

const INSTALLS = ["eth_newBlockFilter", "eth_newPendingTransactionFilter", "eth_newFilter"] as const;
const install = (client: WsRpc, i: number) => {
  const method = INSTALLS[i % INSTALLS.length] as string;
  return client.call(method, method === "eth_newFilter" ? [{}] : []);
};

let node: RunningNode;
let greedy: WsRpc;
let other: WsRpc;
beforeAll(async () => {
  node = await startNode();
  greedy = await WsRpc.open(node.wsUrl);
  other = await WsRpc.open(node.wsUrl);
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
