/** The WebSocket transport: the same dispatch, the message limit, floods, disconnects, shutdown. */

import {connect} from "node:net";
import {WsClient} from "@xchain/test-utils";
import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import type WebSocket from "ws";
import {defaultRpcOptions} from "../../../src/options.ts";
import {buildFixture, type Fixture} from "../../support/fixture.ts";
import {TestNode} from "../../support/node.ts";
import {probeCall} from "../../support/probe.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  // One request at a time per connection: the fairness test below then does not depend on timing.
  node = await TestNode.start({rpc: {maxBodyBytes: 4096, maxInFlightPerConnection: 1}});
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

/** Sends raw text and resolves with the next message. */
function exchange(socket: WebSocket, text: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    socket.once("message", (data) => resolve(String(data)));
    socket.send(text);
  });
}

describe("WebSocket transport", () => {
  it("answers requests and batches like HTTP; notifications get nothing", async () => {
    const client = await WsClient.connect(node.wsUrl);
    try {
      expect(await client.call("eth_chainId")).toEqual({jsonrpc: "2.0", id: 1, result: "0x21"});
      const batch = JSON.stringify([
        {jsonrpc: "2.0", id: 10, method: "net_version"},
        {jsonrpc: "2.0", method: "eth_chainId"},
      ]);
      expect(JSON.parse(await exchange(client.socket, batch))).toEqual([{jsonrpc: "2.0", id: 10, result: "33"}]);
      expect(JSON.parse(await exchange(client.socket, "{oops"))).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: {code: -32700, message: "JSON parse error"},
      });
      // A binary frame of UTF-8 JSON is served as text is (web3.py sends those: wsBinaryFrames.test.ts).
      expect(
        JSON.parse(
          await exchange(client.socket, Buffer.from(JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_chainId"}))),
        ),
      ).toEqual({jsonrpc: "2.0", id: 1, result: "0x21"});
    } finally {
      client.close();
    }
  });

  it("closes a connection that sends a message over maxBodyBytes (1009) and keeps serving others", async () => {
    const client = await WsClient.connect(node.wsUrl);
    client.socket.send(
      JSON.stringify({jsonrpc: "2.0", id: 1, method: "web3_sha3", params: [`0x${"ab".repeat(4096)}`]}),
    );
    expect(await client.closeCode()).toBe(1009);
    const other = await WsClient.connect(node.wsUrl);
    try {
      expect((await other.call("eth_chainId")).result).toBe("0x21");
    } finally {
      other.close();
    }
  });

  it("a flooding connection does not starve another, and gets every answer", async () => {
    const flooder = await WsClient.connect(node.wsUrl);
    const polite = await WsClient.connect(node.wsUrl);
    try {
      const slow = {to: toData(fixture.contract), data: toData(probeCall.burn(20n))};
      let answered = 0;
      // Distinct senders: each call runs (identical ones would be answered from the answer cache).
      const sender = (i: number) => `0x${(i + 1).toString(16).padStart(40, "0")}`;
      const flood = Array.from({length: 100}, (_, i) =>
        flooder.call("eth_call", [{...slow, from: sender(i)}, "latest"]).then((reply) => {
          answered++;
          return reply;
        }),
      );
      await new Promise((r) => setTimeout(r, 20));
      expect((await polite.call("eth_blockNumber")).result).toBe("0x3");
      // Served while most of the flood still waits: it did not queue behind it.
      expect(answered).toBeLessThan(50);
      const answers = await Promise.all(flood);
      expect(answers.every((a) => a.result === "0x")).toBe(true);
    } finally {
      flooder.close();
      polite.close();
    }
  });

  it("survives clients that disconnect mid-request, and ends their subscriptions", async () => {
    for (let i = 0; i < 10; i++) {
      const client = await WsClient.connect(node.wsUrl);
      client.socket.send(JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"]}));
      client.socket.send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "eth_estimateGas",
          params: [{to: toData(fixture.contract), data: toData(probeCall.burn(500n))}],
        }),
      );
      client.socket.terminate();
    }
    await node.mine();
    const client = await WsClient.connect(node.wsUrl);
    try {
      expect((await client.call("eth_blockNumber")).result).toBe("0x4");
    } finally {
      client.close();
    }
  });

  it("answers plain HTTP on the WebSocket port with 426", async () => {
    const res = await fetch(`http://127.0.0.1:${node.server.wsPort}`);
    expect(res.status).toBe(426);
  });
});

describe("the WebSocket handshake timeout", () => {
  it("cuts an idle connection and a handshake still arriving at bodyTimeoutMs, as HTTP does", async () => {
    const limited = await TestNode.start({rpc: {bodyTimeoutMs: 500}});
    try {
      const port = limited.server.wsPort as number;
      /** Opens a TCP connection, writes `text`, and resolves with what the server answered once it closed it. */
      const held = (text: string) =>
        new Promise<string>((resolve) => {
          let answer = "";
          const socket = connect(port, "127.0.0.1", () => socket.write(text));
          socket.on("data", (data) => {
            answer += String(data);
          });
          socket.on("error", () => undefined);
          socket.on("close", () => resolve(answer));
        });
      // Before, Node's defaults held both for 60 s and more (the test's own timeout fails it).
      const answers = await Promise.all([
        held(""),
        held(`GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`),
      ]);
      for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await limited.close();
    }
  });
});

describe("RpcServer.close", () => {
  it("closes open WebSocket connections and stops listening", async () => {
    const own = await TestNode.start();
    const client = await WsClient.connect(own.wsUrl);
    expect((await client.call("eth_subscribe", ["newHeads"])).result).toMatch(/^0x/);
    await own.close();
    expect(await client.closeCode()).toBe(1006);
    await expect(fetch(own.url, {method: "POST"})).rejects.toThrow();
  });

  it("leaves a transport off when disabled, and binds the other to an ephemeral port", async () => {
    const httpOnly = await TestNode.start({rpc: {ws: {...defaultRpcOptions.ws, enabled: false}}});
    try {
      expect(httpOnly.server.wsPort).toBeUndefined();
      expect(httpOnly.server.httpPort).toBeGreaterThan(0);
    } finally {
      await httpOnly.close();
    }
  });
});
