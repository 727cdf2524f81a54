/**
 * One API key while the node runs: its record from the keys file, its token bucket and its open
 * WebSocket connections. The keys file can change under it: `update` swaps the permissions and
 * limits (open connections see them at once), `revoke` tells its connections, which answer what
 * they have read and close.
 */
import type {ApiKeyRecord, KeyLimits, KeyPermissions} from "./keysFile.ts";
import {permissionRefusal} from "./permissions.ts";
import {TokenBucket} from "./tokenBucket.ts";

/** WebSocket close code for a revoked key: 1008, policy violation. */
export const REVOKED_CLOSE_CODE = 1008;

/** What a key needs of a WebSocket connection (`Connection` of the registry, which names this class). */
export interface KeyConnection {
  onClose(listener: () => void): void;
}

/** An admitted key, as requests carry it (`RequestContext.apiKey`). */
export class KeyAccess {
  private record: ApiKeyRecord;
  private readonly bucket: TokenBucket;
  /** Refusals by method name, computed once per record (names reach here only once the registry knows them). */
  private readonly refusals = new Map<string, string | undefined>();
  private readonly connections = new Map<KeyConnection, () => void>();
  private isRevoked = false;

  constructor(record: ApiKeyRecord) {
    this.record = record;
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

  get limits(): KeyLimits {
    return this.record.limits;
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

  /** Takes `requests` from the bucket: 0 when allowed, otherwise the milliseconds to wait. */
  take(requests: number): number {
    return this.bucket.take(requests);
  }

  /** The WebSocket connections open with this key. */
  openConnections(): IterableIterator<KeyConnection> {
    return this.connections.keys();
  }

  /** How many WebSocket connections are open with this key. */
  get connectionCount(): number {
    return this.connections.size;
  }

  /** Counts an open WebSocket connection; `close` is called when the key is revoked (the connection answers, then closes). */
  attach(connection: KeyConnection, close: () => void): void {
    this.connections.set(connection, close);
    connection.onClose(() => this.connections.delete(connection));
  }

  /** The record changed in the file (same secret): new permissions and limits from now on. */
  update(record: ApiKeyRecord): void {
    this.record = record;
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
