import {afterEach, describe, expect, it} from "vitest";
import {SubscriptionManager} from "../../src/filters/subscriptions.ts";
import type {Connection} from "../../src/jsonrpc/registry.ts";
import {NOT_SYNCING} from "../../src/server.ts";
import {stubEvents} from "../support/stubEvents.ts";

/** A connection that can be closed by the test. */
function connection(): Connection & {close(): void} {
  const listeners: (() => void)[] = [];
  return {
    notify: () => undefined,
    onClose: (listener) => listeners.push(listener),
    close: () => {
      for (const listener of listeners) listener();
    },
  };
}

let manager: SubscriptionManager | undefined;
afterEach(() => manager?.close());

function start(maxSubscriptionsPerConnection: number, maxSubscriptions: number): SubscriptionManager {
  manager = new SubscriptionManager(stubEvents().events, NOT_SYNCING, {
    maxSubscriptionsPerConnection,
    maxSubscriptions,
  });
  return manager;
}

const limitError = (message: string) => expect.objectContaining({code: -32005, message});

describe("SubscriptionManager caps (docs/rpc.md §8)", () => {
  it("caps a connection at maxSubscriptionsPerConnection while another still subscribes", () => {
    const subscriptions = start(2, 10);
    const a = connection();
    subscriptions.subscribe(a, {kind: "newHeads"});
    subscriptions.subscribe(a, {kind: "newPendingTransactions"});
    expect(() => subscriptions.subscribe(a, {kind: "newHeads"})).toThrow(
      limitError("limit exceeded: 2 subscriptions per connection"),
    );
    expect(subscriptions.subscribe(connection(), {kind: "newHeads"})).toMatch(/^0x[0-9a-f]{32}$/);
  });

  it("caps the node at maxSubscriptions; unsubscribing or closing a connection frees the slots", () => {
    const subscriptions = start(2, 3);
    const [a, b, c] = [connection(), connection(), connection()];
    const first = subscriptions.subscribe(a, {kind: "newHeads"});
    subscriptions.subscribe(a, {kind: "newHeads"});
    subscriptions.subscribe(b, {kind: "newHeads"});
    expect(() => subscriptions.subscribe(c, {kind: "newHeads"})).toThrow(
      limitError("limit exceeded: 3 subscriptions on this node"),
    );
    expect(subscriptions.unsubscribe(a, first)).toBe(true);
    subscriptions.subscribe(c, {kind: "newHeads"});
    expect(() => subscriptions.subscribe(c, {kind: "newHeads"})).toThrow(
      limitError("limit exceeded: 3 subscriptions on this node"),
    );
    a.close();
    subscriptions.subscribe(b, {kind: "newHeads"});
    expect(() => subscriptions.subscribe(b, {kind: "newHeads"})).toThrow(
      limitError("limit exceeded: 2 subscriptions per connection"),
    );
  });
});
