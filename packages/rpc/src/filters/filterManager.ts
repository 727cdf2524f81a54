/**
 * Polled filters (docs/rpc.md §3.2): block, pending-transaction and log filters collect what happens
 * after their installation until polled. A filter not polled for `filterTimeoutMs` is removed by a
 * periodic sweep; each keeps at most `maxFilterChanges` unpolled entries (`maxPendingFilterChanges`
 * for pending-transaction filters), dropping the oldest, so an abandoned client cannot grow memory
 * without bound. At most `maxFilters` are installed, and at most `maxFiltersPerClient` per client
 * (docs/rpc.md §8), so that one client cannot lock the others out.
 */
import {randomBytes} from "node:crypto";
import type {LogWithContext, NewHeadEvent} from "@xchain/chain";
import type {Transaction} from "@xchain/primitives";
import {bytesToBigInt, type Logger, toQuantity} from "@xchain/utils";
import type {RpcClient} from "../jsonrpc/client.ts";
import {RpcError} from "../jsonrpc/errors.ts";
import type {RpcOptions} from "../options.ts";
import {type BlockNumberOrTag, heightAt, isHeadTag, type TagDepths} from "../params/blockRef.ts";
import type {LogMatchRequest} from "../params/filterObject.ts";
import {BoundedBuffer} from "./boundedBuffer.ts";
import type {EventHub} from "./eventHub.ts";
import {logMatches} from "./logMatcher.ts";

/** A log filter's query: what to match between two blocks (absent: `latest`). */
export interface LogFilterQuery extends LogMatchRequest {
  fromBlock?: BlockNumberOrTag;
  toBlock?: BlockNumberOrTag;
}

/** What a poll returns. */
export type FilterChanges = {kind: "hashes"; hashes: Uint8Array[]} | {kind: "logs"; logs: LogWithContext[]};

// `client` is the RpcClient key the filter counts against.
type Filter = {client: string; lastPollMs: number} & (
  | {kind: "blocks" | "pendingTransactions"; changes: BoundedBuffer<Uint8Array>}
  | {kind: "logs"; query: LogFilterQuery; changes: BoundedBuffer<LogWithContext>}
);

type FilterOptions = Pick<
  RpcOptions,
  "filterTimeoutMs" | "maxFilters" | "maxFiltersPerClient" | "maxFilterChanges" | "maxPendingFilterChanges"
> &
  TagDepths;

/** The installed polled filters. */
export class FilterManager {
  private readonly filters = new Map<string, Filter>();
  /** Installed filters per client key; a client with none has no entry. */
  private readonly perClient = new Map<string, number>();
  private readonly detach: (() => void)[];
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    events: EventHub,
    private readonly options: FilterOptions,
    private readonly logger: Logger,
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

  /** eth_newBlockFilter, eth_newPendingTransactionFilter; -32005 beyond a cap. */
  installHashFilter(kind: "blocks" | "pendingTransactions", client: RpcClient): string {
    const capacity = kind === "blocks" ? this.options.maxFilterChanges : this.options.maxPendingFilterChanges;
    return this.install({kind, client: client.key, changes: new BoundedBuffer(capacity), lastPollMs: this.nowMs()});
  }

  /** eth_newFilter; -32005 beyond a cap. */
  installLogFilter(query: LogFilterQuery, client: RpcClient): string {
    const changes = new BoundedBuffer<LogWithContext>(this.options.maxFilterChanges);
    return this.install({kind: "logs", query, client: client.key, changes, lastPollMs: this.nowMs()});
  }

  /**
   * eth_getFilterChanges: what arrived since the last poll. Entries dropped from a full buffer are
   * logged at debug with their count; the answer keeps its plain array shape (docs/rpc.md §3.2).
   */
  takeChanges(id: string): FilterChanges {
    const filter = this.get(id);
    filter.lastPollMs = this.nowMs();
    if (filter.kind === "logs") return {kind: "logs", logs: this.drain(id, filter, filter.changes)};
    return {kind: "hashes", hashes: this.drain(id, filter, filter.changes)};
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
    return this.remove(id);
  }

  /** Removes every filter and stops listening. */
  close(): void {
    clearInterval(this.sweeper);
    for (const stop of this.detach) stop();
    this.filters.clear();
    this.perClient.clear();
  }

  private install(filter: Filter): string {
    this.sweep();
    const {maxFilters, maxFiltersPerClient} = this.options;
    const held = this.perClient.get(filter.client) ?? 0;
    if (held >= maxFiltersPerClient) throw RpcError.limitExceeded(`${maxFiltersPerClient} filters per client`);
    if (this.filters.size >= maxFilters) throw RpcError.limitExceeded(`${maxFilters} filters on this node`);
    const id = toQuantity(bytesToBigInt(randomBytes(16)));
    this.filters.set(id, filter);
    this.perClient.set(filter.client, held + 1);
    return id;
  }

  private remove(id: string): boolean {
    const filter = this.filters.get(id);
    if (!filter) return false;
    this.filters.delete(id);
    const held = (this.perClient.get(filter.client) ?? 1) - 1;
    if (held > 0) this.perClient.set(filter.client, held);
    else this.perClient.delete(filter.client);
    return true;
  }

  private drain<T>(id: string, filter: Filter, changes: BoundedBuffer<T>): T[] {
    const {entries, dropped} = changes.take();
    if (dropped > 0) {
      this.logger.debug({filter: id, kind: filter.kind, client: filter.client, dropped}, "rpc filter dropped entries");
    }
    return entries;
  }

  private get(id: string): Filter {
    const filter = this.filters.get(id);
    if (!filter) throw RpcError.server("filter not found");
    return filter;
  }

  private sweep(): void {
    const oldest = this.nowMs() - this.options.filterTimeoutMs;
    for (const [id, filter] of this.filters) if (filter.lastPollMs < oldest) this.remove(id);
  }

  // Every filter holds the same hash and log objects, never a copy of its own.
  private onNewHead(event: NewHeadEvent): void {
    const hashes = event.added.map((b) => b.hash());
    const logs = [...event.removedLogs, ...event.addedLogs];
    for (const filter of this.filters.values()) {
      if (filter.kind === "blocks") for (const hash of hashes) filter.changes.push(hash);
      if (filter.kind === "logs") {
        for (const l of logs) {
          if (inRange(filter.query, l, event.head.number, this.options) && logMatches(filter.query, l.log)) {
            filter.changes.push(l);
          }
        }
      }
    }
  }

  private onPending(tx: Transaction): void {
    const hash = tx.hash();
    for (const filter of this.filters.values()) {
      if (filter.kind === "pendingTransactions") filter.changes.push(hash);
    }
  }
}

// The head tags (latest, pending) leave the range open on that side; a number bounds it, and so do
// `safe` and `finalized`, resolved against the head that brought the log (docs/rpc.md §4.3).
function inRange(query: LogFilterQuery, entry: LogWithContext, head: number, depths: TagDepths): boolean {
  const bound = (ref: BlockNumberOrTag | undefined, fallback: number) => {
    return ref === undefined || isHeadTag(ref) ? fallback : heightAt(head, ref, depths);
  };
  const from = bound(query.fromBlock, 0);
  const to = bound(query.toBlock, Number.POSITIVE_INFINITY);
  return entry.blockNumber >= from && entry.blockNumber <= to;
}
