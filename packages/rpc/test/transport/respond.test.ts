/**
 * `reply`'s synchronous path: a body whose handlers answer at once is answered without a promise,
 * and keeps every rule of the asynchronous one (docs/rpc.md §8): a request on a closed connection
 * sees its signal aborted, the response caps refuse, the shared response memory is given back, and
 * the connection forgets the request.
 */
import {noopLogger} from "@xchain/utils";
import {describe, expect, it, vi} from "vitest";
import {createErrorMapper} from "../../src/errorMapping.ts";
import type {DispatchOptions} from "../../src/jsonrpc/dispatch.ts";
import {MethodRegistry} from "../../src/jsonrpc/registry.ts";
import {method} from "../../src/params/method.ts";
import {ConnectionRequests} from "../../src/transport/connectionRequests.ts";
import {InFlightRequests} from "../../src/transport/inFlight.ts";
import {type Reply, reply} from "../../src/transport/respond.ts";
import {OPEN_SENDER} from "../support/sender.ts";

const registry = new MethodRegistry(
  [
    {
      namespace: "test",
      methods: {
        now: method([], () => "0x1"),
        big: method([], () => "x".repeat(500)),
        aborted: method([], (context) => context.signal.aborted),
        later: method([], async () => "0x2"),
        spin: method([], () => {
          const until = performance.now() + 1;
          while (performance.now() < until);
          return "0x3";
        }),
        watch: method([], async (context) => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return context.signal.aborted;
        }),
      },
    },
  ],
  {isNamespaceEnabled: () => true, enabledMethods: [], disabledMethods: []},
);
const dispatchOptions: DispatchOptions = {
  registry,
  maxBatchSize: 100,
  maxJsonDepth: 10,
  mapError: createErrorMapper(noopLogger),
};

function send(body: unknown, {maxResponseBytes = 10_000, memory = 10_000, requests = new ConnectionRequests()} = {}) {
  const limits = {requestTimeoutMs: 1_000, maxResponseBytes, requests: new InFlightRequests(memory)};
  const client = {address: "127.0.0.1", connectionId: 1, key: "127.0.0.1#1"};
  const answer = reply(JSON.stringify(body), dispatchOptions, limits, {
    kind: "http",
    client,
    requests,
    sender: OPEN_SENDER,
  });
  return {answer, limits};
}

const request = (name: string, id = 1) => ({jsonrpc: "2.0", id, method: name, params: []});
const parsed = (answer: Reply) => JSON.parse(answer.payload?.toString("utf8") ?? "null");

describe("reply's synchronous path", () => {
  it("answers a synchronous handler without a promise and gives its bytes back", () => {
    const {answer, limits} = send(request("test_now"));
    expect(answer).not.toBeInstanceOf(Promise);
    expect(parsed(answer as Reply)).toEqual({jsonrpc: "2.0", id: 1, result: "0x1"});
    expect(limits.requests.memory.reserved).toBe(0);
    expect(limits.requests.size).toBe(0);
  });

  it("answers a batch of synchronous handlers synchronously, within its time slice", () => {
    // The clock stands still, so the 20 items fit the slice however slow the machine is.
    const now = vi.spyOn(performance, "now").mockReturnValue(1_000);
    let answer: ReturnType<typeof send>["answer"];
    let limits: ReturnType<typeof send>["limits"];
    try {
      ({answer, limits} = send(Array.from({length: 20}, (_, i) => request("test_now", i))));
    } finally {
      now.mockRestore();
    }
    expect(answer).not.toBeInstanceOf(Promise);
    expect(parsed(answer as Reply)).toHaveLength(20);
    expect(limits.requests.memory.reserved).toBe(0);
  });

  it("lets a synchronous batch past its time slice yield, and answers it whole", async () => {
    const {answer} = send(Array.from({length: 40}, (_, i) => request("test_spin", i)));
    expect(answer).toBeInstanceOf(Promise);
    const items = parsed(await answer);
    expect(items.map((item: {id: number}) => item.id)).toEqual(Array.from({length: 40}, (_, i) => i));
  });

  it("answers a batch of synchronous handlers in order, a pending one awaited in its place", async () => {
    const {answer} = send([request("test_now", 1), request("test_later", 2), request("test_now", 3)]);
    expect(answer).toBeInstanceOf(Promise);
    expect(parsed(await answer)).toEqual([
      {jsonrpc: "2.0", id: 1, result: "0x1"},
      {jsonrpc: "2.0", id: 2, result: "0x2"},
      {jsonrpc: "2.0", id: 3, result: "0x1"},
    ]);
  });

  it("refuses a synchronous answer over maxResponseBytes with -32011", () => {
    const {answer, limits} = send(request("test_big"), {maxResponseBytes: 100});
    expect(parsed(answer as Reply).error.code).toBe(-32011);
    expect(limits.requests.memory.reserved).toBe(0);
  });

  it("refuses a synchronous answer when the shared response memory is used up with -32005", () => {
    const {answer} = send(request("test_big"), {memory: 100});
    expect(parsed(answer as Reply).error.code).toBe(-32005);
  });

  it("shows the handler an aborted signal when the connection has closed", () => {
    const requests = new ConnectionRequests();
    requests.close();
    const {answer} = send(request("test_aborted"), {requests});
    expect(parsed(answer as Reply).result).toBe(true);
  });

  it("aborts a pending handler's signal when its connection closes while it runs", async () => {
    const requests = new ConnectionRequests();
    const {answer} = send(request("test_watch"), {requests});
    requests.close();
    expect(parsed(await answer).result).toBe(true);
  });

  it("lets an open connection's handler see a live signal", () => {
    const {answer} = send(request("test_aborted"));
    expect(parsed(answer as Reply).result).toBe(false);
  });
});
