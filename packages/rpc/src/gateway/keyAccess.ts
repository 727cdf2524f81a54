/**
 * One API key while the node runs: its record from the keys file, its token bucket and its open
 * WebSocket connections. It is the `Sender` the gateway admits (docs/gateway.md §2, §3): its
 * permissions and its limits merged with the node's. The keys file can change under it: `update`
 * swaps the permissions and limits (open connections see them at once), `revoke` tells its
 * connections, which answer what they have read and close.
 */

import {TokenBucket} from "@xchain/utils";
import type {RpcClient} from "../jsonrpc/client.ts";
import {clientOfKey} from "../jsonrpc/client.ts";
import {RpcError} from "../jsonrpc/errors.ts";
import type {PrincipalConnection, RequestLimits} from "../jsonrpc/principal.ts";
import type {Sender} from "../limits/admission.ts";
import {type RateRefusal, rateRefusal} from "../limits/rateLimit.ts";
import {DEFAULT_NODE_LIMITS} from "../limits/requestLimits.ts";
import type {ApiKeyRecord, KeyLimits, KeyPermissions} from "./keysFile.ts";
import {permissionRefusal} from "./permissions.ts";

/** An admitted key, as requests carry it (`RequestContext.principal`). */
export class KeyAccess implements Sender {
  private record: ApiKeyRecord;
  private merged: RequestLimits;
  private readonly bucket: TokenBucket;
  /** Refusals by method name, computed once per record (names reach here only once the registry knows them). */
  private readonly refusals = new Map<string, string | undefined>();
  private readonly connections = new Map<PrincipalConnection, () => void>();
  private isRevoked = false;

  /** `node`: the node's own limits, which the key's can only narrow. */
  constructor(
    record: ApiKeyRecord,
    private readonly node: RequestLimits = DEFAULT_NODE_LIMITS,
  ) {
    this.record = record;
    this.merged = mergeLimits(record, node);
    this.bucket = new TokenBucket({ratePerSecond: record.limits.requestsPerSecond, burst: record.limits.burst});
  }

  /** The public id: the only name of the key in logs and errors. */
  get id(): string {
    return this.record.id;
  }

  /** The SHA-256 of the secret. */
  get sha256(): string {
    return this.record.sha256;
  }

  get permissions(): KeyPermissions {
    return this.record.permissions;
  }

  /** The key's own limits, as the file states them. */
  get limits(): KeyLimits {
    return this.record.limits;
  }

  get requestLimits(): RequestLimits {
    return this.merged;
  }

  /** Whether the key was removed from the file (its requests in flight finish; nothing new is admitted). */
  get revoked(): boolean {
    return this.isRevoked;
  }

  /** Why the key may not call `method` (the -32601 reason), undefined when it may. */
  refusal(method: string): string | undefined {
    if (this.refusals.has(method)) return this.refusals.get(method);
    const reason = permissionRefusal(this.record.permissions, this.record.id, method);
    this.refusals.set(method, reason);
    return reason;
  }

  /** Takes the body's tokens from the key's bucket, whatever connection it came on. */
  checkRate(raw: unknown): RateRefusal | undefined {
    const {requestsPerSecond, burst} = this.record.limits;
    return rateRefusal(raw, (cost) => this.bucket.take(cost), {
      requestsPerSecond,
      burst,
      sender: () => `API key ${this.id}`,
    });
  }

  /** Per-client limits count the key's requests together, on any connection (docs/gateway.md). */
  clientOf(client: RpcClient): RpcClient {
    return clientOfKey(client, this.id);
  }

  /** The WebSocket connections open with this key. */
  openConnections(): IterableIterator<PrincipalConnection> {
    return this.connections.keys();
  }

  connectionRefusal(): RpcError | undefined {
    const max = this.record.limits.maxWsConnections;
    if (this.connections.size < max) return undefined;
    return RpcError.limitExceeded(`${max} WebSocket connections for API key ${this.id}`);
  }

  /** How many WebSocket connections are open with this key. */
  get connectionCount(): number {
    return this.connections.size;
  }

  /** Counts an open WebSocket connection; `close` is called when the key is revoked (the connection answers, then closes). */
  attach(connection: PrincipalConnection, close: () => void): void {
    this.connections.set(connection, close);
    connection.onClose(() => this.connections.delete(connection));
  }

  /** The record changed in the file (same secret): new permissions and limits from now on. */
  update(record: ApiKeyRecord): void {
    this.record = record;
    this.merged = mergeLimits(record, this.node);
    this.refusals.clear();
    this.bucket.reconfigure({ratePerSecond: record.limits.requestsPerSecond, burst: record.limits.burst});
  }

  /** The key is gone from the file: its WebSocket connections are told to close. */
  revoke(): void {
    this.isRevoked = true;
    for (const close of [...this.connections.values()]) close();
    this.connections.clear();
  }
}

/** The node's limits narrowed by the key's record: a key can lower a node cap, never raise it. */
function mergeLimits({id, limits, permissions}: ApiKeyRecord, node: RequestLimits): RequestLimits {
  const {stateOverride} = permissions;
  return {
    maxBatchSize: Math.min(limits.maxBatchSize, node.maxBatchSize),
    logsMaxBlockRange: limits.logsMaxBlockRange,
    traceMaxBlockRange: Math.min(limits.traceMaxBlockRange ?? node.traceMaxBlockRange, node.traceMaxBlockRange),
    maxSubscriptions: limits.maxSubscriptions,
    // Set in the key, it decides for the key's requests (docs/gateway.md §2); unset, the node does.
    stateOverrideRefusal:
      stateOverride === undefined ? node.stateOverrideRefusal : stateOverride ? undefined : `for API key ${id}`,
  };
}
