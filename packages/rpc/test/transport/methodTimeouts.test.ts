/**
 * Time budgets above `requestTimeoutMs` (docs/rpc.md §8): a body runs under the longest budget of
 * the enabled methods it calls, so a batch with a tracing method gets the tracing budget and a body
 * of ordinary methods keeps `requestTimeoutMs`.
 */
import {setTimeout as sleep} from "node:timers/promises";
import {noopLogger} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {createErrorMapper} from "../../src/errorMapping.ts";
import type {DispatchOptions} from "../../src/jsonrpc/dispatch.ts";
import {MethodRegistry, type RpcMethod, withTimeout} from "../../src/jsonrpc/registry.ts";
import {defaultRpcOptions} from "../../src/options.ts";
import {method} from "../../src/params/method.ts";
import {ConnectionRequests} from "../../src/transport/connectionRequests.ts";
import {InFlightRequests} from "../../src/transport/inFlight.ts";
import {reply} from "../../src/transport/respond.ts";
import {TestNode} from "../support/node.ts";
import {OPEN_SENDER} from "../support/sender.ts";

const REQUEST_TIMEOUT_MS = 100;
// The margins between the methods' durations and the budgets are wide (a loaded machine delays timers).
const TRACE_BUDGET_MS = 1_500;

/** A method that answers `"done"` after `ms`. */
const slow = (ms: number): RpcMethod =>
  method([], async () => {
    await sleep(ms);
    return "done";
  });

const registry = new MethodRegistry(
  [
    {
      namespace: "test",
      methods: {
        traced: withTimeout(slow(250), TRACE_BUDGET_MS),
        endless: withTimeout(slow(10_000), TRACE_BUDGET_MS),
        offTraced: withTimeout(slow(0), TRACE_BUDGET_MS),
        plain: slow(250),
        quick: slow(0),
      },
    },
  ],
  {isNamespaceEnabled: () => true, enabledMethods: [], disabledMethods: ["test_offTraced"]},
);
const dispatchOptions: DispatchOptions = {
  registry,
  maxBatchSize: 10,
  maxJsonDepth: 10,
  mapError: createErrorMapper(noopLogger),
};

async function send(methods: string | string[]): Promise<unknown> {
  const request = (name: string, id: number) => ({jsonrpc: "2.0", id, method: name, params: []});
  const body = Array.isArray(methods) ? methods.map((name, i) => request(name, i)) : request(methods, 0);
  const limits = {
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    maxResponseBytes: 10_000,
    requests: new InFlightRequests(10_000),
  };
  const client = {address: "127.0.0.1", connectionId: 1, key: "127.0.0.1#1"};
  const {payload} = await reply(JSON.stringify(body), dispatchOptions, limits, {
    kind: "http",
    client,
    requests: new ConnectionRequests(),
    sender: OPEN_SENDER,
  });
  return JSON.parse(payload?.toString("utf8") ?? "null");
}

/** The timeout answer of request `id`: it keeps its id (docs/rpc.md §8). */
const timedOut = (id: number) => ({
  jsonrpc: "2.0",
  id,
  error: {code: -32011, message: "Execution has got timeout out."},
});

describe("time budgets per method", () => {
  it("answers a marked method that runs past requestTimeoutMs but within its budget", async () => {
    expect(await send("test_traced")).toEqual({jsonrpc: "2.0", id: 0, result: "done"});
  });

  it("answers an unmarked method as slow with -32011", async () => {
    expect(await send("test_plain")).toEqual(timedOut(0));
  });

  it("gives a whole batch the longest budget of its methods, and only then", async () => {
    expect(await send(["test_quick", "test_traced"])).toEqual([
      {jsonrpc: "2.0", id: 0, result: "done"},
      {jsonrpc: "2.0", id: 1, result: "done"},
    ]);
    expect(await send(["test_quick", "test_plain"])).toEqual([{jsonrpc: "2.0", id: 0, result: "done"}, timedOut(1)]);
  });

  it("still ends a marked method at its own budget", async () => {
    // It would answer "done" after 10 s: the timeout answer is its budget's (1.5 s) doing.
    expect(await send("test_endless")).toEqual(timedOut(0));
  });

  it("does not count a disabled method's budget", async () => {
    expect(await send(["test_offTraced", "test_plain"])).toEqual([
      {jsonrpc: "2.0", id: 0, error: {code: -32601, message: expect.stringContaining("disabled")}},
      timedOut(1),
    ]);
  });
});

describe("the tracing methods", () => {
  it("get rpc.trace.timeoutMs as their budget, other methods none; a shorter one changes nothing", async () => {
    const budget = (node: TestNode, name: string) => node.server.registry.timeBudgetMs([name], REQUEST_TIMEOUT_MS);
    const node = await TestNode.start({listen: false, rpc: {trace: {...defaultRpcOptions.trace, timeoutMs: 7_000}}});
    const short = await TestNode.start({listen: false, rpc: {trace: {...defaultRpcOptions.trace, timeoutMs: 10}}});
    try {
      for (const name of ["trace_block", "trace_transaction", "trace_filter", "debug_traceTransaction"]) {
        expect([name, budget(node, name)]).toEqual([name, 7_000]);
      }
      for (const name of ["debug_wireProtocolQueueSize", "eth_call", "eth_getLogs"]) {
        expect([name, budget(node, name)]).toEqual([name, REQUEST_TIMEOUT_MS]);
      }
      expect(budget(short, "trace_block")).toBe(REQUEST_TIMEOUT_MS);
      expect(defaultRpcOptions.trace.timeoutMs).toBe(30_000);
    } finally {
      await node.close();
      await short.close();
    }
  });
});

describe("the sending methods", () => {
  it("get rpc.sendTimeoutMs as their budget: with instant mining each send waits for its block", async () => {
    const node = await TestNode.start({listen: false, rpc: {sendTimeoutMs: 9_000}});
    try {
      const budget = (name: string) => node.server.registry.timeBudgetMs([name], REQUEST_TIMEOUT_MS);
      for (const name of ["eth_sendRawTransaction", "eth_sendTransaction", "eth_sendUnsignedTransaction"]) {
        expect([name, budget(name)]).toEqual([name, 9_000]);
      }
      expect(budget("eth_getTransactionReceipt")).toBe(REQUEST_TIMEOUT_MS);
      expect(defaultRpcOptions.sendTimeoutMs).toBe(30_000);
    } finally {
      await node.close();
    }
  });
});
