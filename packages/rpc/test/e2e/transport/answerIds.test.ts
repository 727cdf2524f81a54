/**
 * Answers that keep their ids (docs/rpc.md §8): a request stopped by a limit (its body's time
 * budget, `maxResponseBytes`, the memory all responses share) is answered with its own id, and a
 * batch always gets an array: the items answered before the limit keep their answers, the others
 * get the limit's error in place with their ids (geth's batch answer). Over HTTP and WebSocket.
 */
import {setTimeout as sleep} from "node:timers/promises";
import {WsClient} from "@xchain/test-utils";
import {noopLogger} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import type WebSocket from "ws";
import {createErrorMapper} from "../../../src/errorMapping.ts";
import type {DispatchOptions} from "../../../src/jsonrpc/dispatch.ts";
import {MethodRegistry} from "../../../src/jsonrpc/registry.ts";
import {method} from "../../../src/params/method.ts";
import {ConnectionRequests} from "../../../src/transport/connectionRequests.ts";
import {InFlightRequests} from "../../../src/transport/inFlight.ts";
import {reply} from "../../../src/transport/respond.ts";
import {TestNode} from "../../support/node.ts";
import {OPEN_SENDER} from "../../support/sender.ts";

const TIMEOUT = {code: -32011, message: "Execution has got timeout out."};
const request = (name: string, id: number, params: unknown[] = []) => ({jsonrpc: "2.0", id, method: name, params});
const timedOut = (id: number) => ({jsonrpc: "2.0", id, error: TIMEOUT});

describe("reply under its limits", () => {
  const registry = new MethodRegistry(
    [
      {
        namespace: "test",
        methods: {
          now: method([], () => "0x1"),
          big: method([], () => "x".repeat(500)),
          // Never answers by itself: only the body's deadline ends it.
          hang: method(
            [],
            (context) =>
              new Promise((_resolve, reject) =>
                context.signal.addEventListener("abort", () => reject(context.signal.reason)),
              ),
          ),
        },
      },
    ],
    {isNamespaceEnabled: () => true, enabledMethods: [], disabledMethods: []},
  );
  const dispatchOptions: DispatchOptions = {
    registry,
    maxBatchSize: 10,
    maxJsonDepth: 10,
    mapError: createErrorMapper(noopLogger),
  };

  async function send(body: unknown, {maxResponseBytes = 10_000, memory = 10_000} = {}): Promise<unknown> {
    const limits = {requestTimeoutMs: 30, maxResponseBytes, requests: new InFlightRequests(memory)};
    const client = {address: "127.0.0.1", connectionId: 1, key: "127.0.0.1#1"};
    const {payload} = await reply(JSON.stringify(body), dispatchOptions, limits, {
      kind: "http",
      client,
      requests: new ConnectionRequests(),
      sender: OPEN_SENDER,
    });
    return payload === undefined ? undefined : JSON.parse(payload.toString("utf8"));
  }

  it("answers a timed-out request with its own id", async () => {
    expect(await send(request("test_hang", 7))).toEqual(timedOut(7));
    expect(await send(request("test_hang", "seven" as unknown as number))).toEqual(timedOut("seven" as never));
  });

  it("answers a timed-out notification with nothing", async () => {
    expect(await send({jsonrpc: "2.0", method: "test_hang", params: []})).toBeUndefined();
  });

  it("answers a batch [good, times out, good] with an array of three: the good answer kept, the rest -32011 with their ids", async () => {
    expect(await send([request("test_now", 1), request("test_hang", 2), request("test_now", 3)])).toEqual([
      {jsonrpc: "2.0", id: 1, result: "0x1"},
      timedOut(2),
      timedOut(3),
    ]);
  });

  it("leaves a batch's notifications unanswered when it times out", async () => {
    const notification = {jsonrpc: "2.0", method: "test_now", params: []};
    expect(await send([request("test_now", 1), request("test_hang", 2), notification, request("test_now", 4)])).toEqual(
      [{jsonrpc: "2.0", id: 1, result: "0x1"}, timedOut(2), timedOut(4)],
    );
  });

  it("answers a response over maxResponseBytes with its id, and the batch items from it on likewise", async () => {
    const tooLarge = {code: -32011, message: "Response too large: more than 300 bytes"};
    expect(await send(request("test_big", 5), {maxResponseBytes: 300})).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: tooLarge,
    });
    expect(
      await send([request("test_now", 1), request("test_big", 2), request("test_now", 3)], {maxResponseBytes: 300}),
    ).toEqual([
      {jsonrpc: "2.0", id: 1, result: "0x1"},
      {jsonrpc: "2.0", id: 2, error: tooLarge},
      {jsonrpc: "2.0", id: 3, error: tooLarge},
    ]);
  });

  it("answers a response past the memory all responses share with -32005 and its id", async () => {
    const answers = (await send([request("test_now", 1), request("test_big", 2)], {memory: 300})) as unknown[];
    expect(answers).toEqual([
      {jsonrpc: "2.0", id: 1, result: "0x1"},
      {jsonrpc: "2.0", id: 2, error: {code: -32005, message: expect.stringContaining("maxInFlightResponseBytes")}},
    ]);
  });
});

describe("over a node's HTTP and WebSocket", () => {
  let plain: TestNode;
  let node: TestNode;
  beforeAll(async () => {
    plain = await TestNode.start();
    // eth_getLogs reads a chain that answers only when told to stop: every such request times out.
    const hanging = new Proxy(plain.chain, {
      get: (target, property, receiver) =>
        property === "getLogs"
          ? (_filter: unknown, control: {signal: AbortSignal}) =>
              new Promise((_resolve, reject) =>
                control.signal.addEventListener("abort", () => reject(control.signal.reason)),
              )
          : Reflect.get(target, property, receiver),
    });
    node = await TestNode.start({rpc: {requestTimeoutMs: 50, maxResponseBytes: 300}, deps: {chain: hanging}});
  });
  afterAll(async () => {
    await node.close();
    await plain.close();
  });

  /** Sends raw text and resolves with the next message. */
  function exchange(socket: WebSocket, text: string): Promise<unknown> {
    return new Promise((resolve) => {
      socket.once("message", (data) => resolve(JSON.parse(String(data))));
      socket.send(text);
    });
  }

  it("a WebSocket client gets its timed-out call answered with its id, and the connection keeps serving", async () => {
    const client = await WsClient.connect(node.wsUrl);
    try {
      const [late, quick] = await Promise.all([
        client.call("eth_getLogs", [{}]),
        sleep(0).then(() => client.call("eth_chainId")),
      ]);
      expect(late).toEqual({jsonrpc: "2.0", id: 1, error: TIMEOUT});
      expect(quick).toEqual({jsonrpc: "2.0", id: 2, result: "0x21"});
    } finally {
      client.close();
    }
  });

  it("a WebSocket batch [good, times out, good] gets an array of three", async () => {
    const client = await WsClient.connect(node.wsUrl);
    try {
      const batch = [request("eth_chainId", 1), request("eth_getLogs", 2, [{}]), request("net_version", 3)];
      expect(await exchange(client.socket, JSON.stringify(batch))).toEqual([
        {jsonrpc: "2.0", id: 1, result: "0x21"},
        timedOut(2),
        timedOut(3),
      ]);
    } finally {
      client.close();
    }
  });

  it("a WebSocket call over maxResponseBytes is answered with its id", async () => {
    const client = await WsClient.connect(node.wsUrl);
    try {
      expect(await client.call("eth_getBlockByNumber", ["latest", true])).toEqual({
        jsonrpc: "2.0",
        id: 1,
        error: {code: -32011, message: "Response too large: more than 300 bytes"},
      });
    } finally {
      client.close();
    }
  });

  it("an HTTP batch [good, times out, good] gets an array of three", async () => {
    const batch = [request("eth_chainId", 1), request("eth_getLogs", 2, [{}]), request("net_version", 3)];
    const {status, text} = await node.post(JSON.stringify(batch));
    expect(status).toBe(200);
    expect(JSON.parse(text)).toEqual([{jsonrpc: "2.0", id: 1, result: "0x21"}, timedOut(2), timedOut(3)]);
  });
});
