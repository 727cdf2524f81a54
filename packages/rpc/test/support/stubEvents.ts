/** Stub chain and txpool around a real EventHub, and a logger that keeps its debug lines. */
import {EventEmitter} from "node:events";
import type {Transaction} from "@xchain/primitives";
import {noopLogger} from "@xchain/utils";
import type {RpcChain} from "../../src/deps.ts";
import {EventHub} from "../../src/filters/eventHub.ts";
import type {RpcClient} from "../../src/jsonrpc/client.ts";

/** An EventHub and the function that makes a transaction with `hash` pending. */
export function stubEvents(): {events: EventHub; pend: (hash: Uint8Array) => void} {
  const listeners = new Set<(tx: Transaction) => void>();
  const txpool = {
    onPending: (listener: (tx: Transaction) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const chain = {events: new EventEmitter()} as unknown as RpcChain;
  const events = new EventHub(chain, txpool, noopLogger);
  const pend = (hash: Uint8Array) => {
    for (const listener of listeners) listener({hash: () => hash} as Transaction);
  };
  return {events, pend};
}

/** A client as `clientOf` would make it. */
export function client(key: string): RpcClient {
  return {address: key, connectionId: 0, key};
}
