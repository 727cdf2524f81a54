/**
 * Polled filters (docs/rpc.md §3.2): block, pending-transaction and log filters collect what happens
 * after their installation until polled. A filter not polled for `filterTimeoutMs` is removed by a
 * periodic sweep; each keeps at most `maxFilterChanges` unpolled entries (the oldest are dropped),
 * so an abandoned client cannot grow memory without bound.
 */
import {randomBytes} from "node:crypto";
import type {LogWithContext, NewHeadEvent} from "@xchain/chain";
import type {Transaction} from "@xchain/primitives";
import {bytesToBigInt, toQuantity} from "@xchain/utils";
import {RpcError} from "../jsonrpc/errors.ts";
import type {RpcOptions} from "../options.ts";
import type {BlockNumberOrTag} from "../params/blockRef.ts";
import type {LogMatchRequest} from "../params/filterObject.ts";
import type {EventHub} from "./eventHub.ts";
import {logMatches} from "./logMatcher.ts";

/** A log filter's query: what to match between two blocks (absent: `latest`). */
export interface LogFilterQuery extends LogMatchRequest {
  fromBlock?: BlockNumberOrTag;
  toBlock?: BlockNumberOrTag;
}

/** What a poll returns. */
export type FilterChanges = {kind: "hashes"; hashes: Uint8Array[]} | {kind: "logs"; logs: LogWithContext[]};

type Filter =
  | {kind: "blocks" | "pendingTransactions"; changes: Uint8Array[]; lastPollMs: number}
  | {kind: "logs"; query: LogFilterQuery; changes: LogWithContext[]; lastPollMs: number};

type FilterOptions = Pick<RpcOptions, "filterTimeoutMs" | "maxFilters" | "maxFilterChanges">;

/** The installed polled filters. */
export class FilterManager {
  private readonly filters = new Map<string, Filter>();
  private readonly detach: (() => void)[];
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    events: EventHub,
    private readonly options: FilterOptions,
    private readonly nowMs: () => number = Date.now,
  ) {
    this.detach = [
      events.onNewHead((event) => this.onNewHead(event)),
      events.onPendingTransaction((tx) => this.onPending(tx)),
    ];
    const period = Math.min(Math.max(options.filterTimeoutMs / 2, 10), 60_000);
    this.sweeper = setInterval(() => this.sweep(), period);
    this.sweeper.unref();
  }

  /** eth_newBlockFilter, eth_newPendingTransactionFilter. */
  installHashFilter(kind: "blocks" | "pendingTransactions"): string {
    return this.install({kind, changes: [], lastPollMs: this.nowMs()});
  }

  /** eth_newFilter. */
  installLogFilter(query: LogFilterQuery): string {
    return this.install({kind: "logs", query, changes: [], lastPollMs: this.nowMs()});
  }

  /** eth_getFilterChanges: what arrived since the last poll. */
  takeChanges(id: string): FilterChanges {
    const filter = this.get(id);
    filter.lastPollMs = this.nowMs();
    if (filter.kind === "logs") return {kind: "logs", logs: filter.changes.splice(0)};
    return {kind: "hashes", hashes: filter.changes.splice(0)};
  }

  /** eth_getFilterLogs: the query of a log filter (polling counts as activity). */
  logQuery(id: string): LogFilterQuery {
    const filter = this.get(id);
    if (filter.kind !== "logs") throw RpcError.server("filter is not a log filter");
    filter.lastPollMs = this.nowMs();
    return filter.query;
  }

  /** eth_uninstallFilter: false when there was no such filter. */
  uninstall(id: string): boolean {
    return this.filters.delete(id);
  }

  /** Removes every filter and stops listening. */
  close(): void {
    clearInterval(this.sweeper);
    for (const stop of this.detach) stop();
    this.filters.clear();
  }

  private install(filter: Filter): string {
    this.sweep();
    if (this.filters.size >= this.options.maxFilters) {
      throw RpcError.server(`too many filters installed (at most ${this.options.maxFilters})`);
    }
    const id = toQuantity(bytesToBigInt(randomBytes(16)));
    this.filters.set(id, filter);
    return id;
  }

  private get(id: string): Filter {
    const filter = this.filters.get(id);
    if (!filter) throw RpcError.server("filter not found");
    return filter;
  }

  private sweep(): void {
    const oldest = this.nowMs() - this.options.filterTimeoutMs;
    for (const [id, filter] of this.filters) if (filter.lastPollMs < oldest) this.filters.delete(id);
  }

  private onNewHead(event: NewHeadEvent): void {
    const logs = [...event.removedLogs, ...event.addedLogs];
    for (const filter of this.filters.values()) {
      if (filter.kind === "blocks")
        this.push(
          filter.changes,
          event.added.map((b) => b.hash()),
        );
      if (filter.kind === "logs")
        this.push(
          filter.changes,
          logs.filter((l) => inRange(filter.query, l) && logMatches(filter.query, l.log)),
        );
    }
  }

  private onPending(tx: Transaction): void {
    for (const filter of this.filters.values()) {
      if (filter.kind === "pendingTransactions") this.push(filter.changes, [tx.hash()]);
    }
  }

  private push<T>(changes: T[], items: T[]): void {
    for (const item of items) changes.push(item);
    const excess = changes.length - this.options.maxFilterChanges;
    if (excess > 0) changes.splice(0, excess);
  }
}

// Tags (latest, pending) leave the range open on that side; a number bounds it.
function inRange(query: LogFilterQuery, entry: LogWithContext): boolean {
  const bound = (ref: BlockNumberOrTag | undefined, fallback: number) => {
    if (ref?.kind === "number") return ref.number;
    return ref?.kind === "tag" && ref.tag === "earliest" ? 0 : fallback;
  };
  const from = bound(query.fromBlock, 0);
  const to = bound(query.toBlock, Number.POSITIVE_INFINITY);
  return entry.blockNumber >= from && entry.blockNumber <= to;
}
