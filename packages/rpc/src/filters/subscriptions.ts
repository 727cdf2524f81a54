/**
 * WebSocket subscriptions (docs/rpc.md §3.1, §6): `newHeads` (every header added, a reorganization's
 * whole new branch included), `logs` (logs of removed blocks again with `removed: true`, then the
 * new ones), `newPendingTransactions` (hashes, re-admitted ones after a reorganization included,
 * since the txpool reports them again) and `syncing` (the status object when a sync starts,
 * `false` when it ends). Subscriptions end with their connection. At most
 * `maxSubscriptionsPerConnection` per connection and `maxSubscriptions` on the node (docs/rpc.md §8).
 */

import {randomBytes} from "node:crypto";
import {bytesToHex, toData} from "@xchain/utils";
import type {SyncStatusSource} from "../deps.ts";
import {formatHeader} from "../format/header.ts";
import {formatLog} from "../format/log.ts";
import {formatSyncStatus} from "../format/syncStatus.ts";
import {RpcError} from "../jsonrpc/errors.ts";
import type {PrincipalConnection} from "../jsonrpc/principal.ts";
import type {Connection} from "../jsonrpc/registry.ts";
import type {RpcOptions} from "../options.ts";
import type {LogMatchRequest} from "../params/filterObject.ts";
import type {EventHub} from "./eventHub.ts";
import {logMatches} from "./logMatcher.ts";

/** A subscription type and its filter. */
export type SubscriptionRequest =
  | {kind: "newHeads" | "newPendingTransactions" | "syncing"}
  | {kind: "logs"; filter: LogMatchRequest};

/** The subscriptions of every WebSocket connection. */
export class SubscriptionManager {
  private readonly byConnection = new Map<Connection, Map<string, () => void>>();
  /** Subscriptions of every connection together. */
  private total = 0;

  constructor(
    private readonly events: EventHub,
    private readonly sync: SyncStatusSource,
    private readonly limits: Pick<RpcOptions, "maxSubscriptionsPerConnection" | "maxSubscriptions">,
  ) {}

  /** Subscriptions of every connection together. */
  get count(): number {
    return this.total;
  }

  /** eth_subscribe: returns the subscription id; -32005 naming the cap when the connection's or the node's is hit. */
  subscribe(connection: Connection, request: SubscriptionRequest): string {
    const {maxSubscriptionsPerConnection, maxSubscriptions} = this.limits;
    const held = this.byConnection.get(connection)?.size ?? 0;
    if (held >= maxSubscriptionsPerConnection) {
      throw RpcError.limitExceeded(`${maxSubscriptionsPerConnection} subscriptions per connection`);
    }
    if (this.total >= maxSubscriptions) throw RpcError.limitExceeded(`${maxSubscriptions} subscriptions on this node`);
    let subscriptions = this.byConnection.get(connection);
    if (!subscriptions) {
      subscriptions = new Map();
      this.byConnection.set(connection, subscriptions);
      connection.onClose(() => this.endAll(connection));
    }
    const id = `0x${bytesToHex(randomBytes(16))}`;
    const send = (result: unknown) => connection.notify("eth_subscription", {subscription: id, result});
    subscriptions.set(id, this.listen(request, send));
    this.total++;
    return id;
  }

  /** The subscriptions `connections` hold together (an API key's, docs/gateway.md). */
  heldBy(connections: Iterable<PrincipalConnection>): number {
    let held = 0;
    // A key's connections are the transport's `Connection`s, seen through the narrower type.
    for (const connection of connections) held += this.byConnection.get(connection as Connection)?.size ?? 0;
    return held;
  }

  /** eth_unsubscribe: false when this connection has no such subscription. */
  unsubscribe(connection: Connection, id: string): boolean {
    const stop = this.byConnection.get(connection)?.get(id);
    if (!stop) return false;
    stop();
    this.byConnection.get(connection)?.delete(id);
    this.total--;
    return true;
  }

  /** Ends every subscription of every connection. */
  close(): void {
    for (const connection of [...this.byConnection.keys()]) this.endAll(connection);
  }

  private endAll(connection: Connection): void {
    const subscriptions = this.byConnection.get(connection);
    if (!subscriptions) return;
    for (const stop of subscriptions.values()) stop();
    this.total -= subscriptions.size;
    this.byConnection.delete(connection);
  }

  private listen(request: SubscriptionRequest, send: (result: unknown) => void): () => void {
    switch (request.kind) {
      case "newHeads":
        return this.events.onNewHead((event) => {
          for (const block of event.added) send(formatHeader(block.header));
        });
      case "logs":
        return this.events.onNewHead((event) => {
          for (const entry of [...event.removedLogs, ...event.addedLogs]) {
            if (logMatches(request.filter, entry.log)) send(formatLog(entry));
          }
        });
      case "newPendingTransactions":
        return this.events.onPendingTransaction((tx) => send(toData(tx.hash())));
      case "syncing":
        return this.sync.onSyncChange((status) => send(formatSyncStatus(status)));
    }
  }
}
