/** Execution slots: the caps per client and in all, turns between clients, and leaving the queue. */
import {describe, expect, it} from "vitest";
import {RpcError, RpcErrorCode} from "../../src/jsonrpc/errors.ts";
import {ExecutionSlots} from "../../src/limits/executionSlots.ts";

const never = new AbortController().signal;

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("ExecutionSlots", () => {
  it("lets a client run up to its cap, and the next one when a slot frees", async () => {
    const slots = new ExecutionSlots({perClient: 2, total: 10});
    const first = await slots.acquire("a", never);
    await slots.acquire("a", never);
    const third = slots.acquire("a", never);
    expect(await settled(third)).toBe(false);
    // Another client is not held back by a's queue.
    await slots.acquire("b", never);
    first();
    expect(await settled(third)).toBe(true);
    expect(slots.runningCount).toBe(3);
  });

  it("serves waiting clients in turn when the node-wide cap is reached", async () => {
    const slots = new ExecutionSlots({perClient: 10, total: 1});
    const release = await slots.acquire("busy", never);
    const order: string[] = [];
    const wait = (client: string) =>
      slots.acquire(client, never).then((free) => {
        order.push(client);
        free();
      });
    // "busy" queues three more before "quiet" asks once: "quiet" still gets the second turn.
    const all = [wait("busy"), wait("busy"), wait("busy"), wait("quiet")];
    release();
    await Promise.all(all);
    expect(order).toEqual(["busy", "quiet", "busy", "busy"]);
  });

  it("a request aborted while it waits leaves the queue with -32011 and takes no slot", async () => {
    const slots = new ExecutionSlots({perClient: 1, total: 1});
    const release = await slots.acquire("a", never);
    const controller = new AbortController();
    const waiting = slots.acquire("b", controller.signal);
    controller.abort();
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe(RpcErrorCode.TIMEOUT);
    release();
    expect(slots.runningCount).toBe(0);
    await expect(slots.acquire("c", never)).resolves.toBeTypeOf("function");
  });

  it("tryAcquire takes a free slot at once and none while the client is at its cap or waits", async () => {
    const slots = new ExecutionSlots({perClient: 1, total: 2});
    const release = slots.tryAcquire("a");
    expect(release).toBeTypeOf("function");
    expect(slots.tryAcquire("a")).toBeUndefined();
    const waiting = slots.acquire("a", never);
    release?.();
    await waiting;
    expect(slots.runningCount).toBe(1);
    expect(slots.tryAcquire("b")).toBeTypeOf("function");
    expect(slots.tryAcquire("c")).toBeUndefined();
  });

  it("refuses at once when the signal is already aborted, and a release counts once", async () => {
    const slots = new ExecutionSlots({perClient: 1, total: 1});
    const controller = new AbortController();
    controller.abort();
    await expect(slots.acquire("a", controller.signal)).rejects.toBeInstanceOf(RpcError);
    const release = await slots.acquire("a", never);
    release();
    release();
    expect(slots.runningCount).toBe(0);
  });
});
