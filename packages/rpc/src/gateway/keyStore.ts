/**
 * The keys the node admits, by the SHA-256 of their secret: a presented key is hashed and looked up
 * in a Map, so that every lookup costs the same. Applying a new keys file keeps the `KeyAccess` of
 * a key whose secret is unchanged (its bucket and connections), and revokes the ones that left.
 */
import type {RequestLimits} from "../jsonrpc/principal.ts";
import {DEFAULT_NODE_LIMITS} from "../limits/requestLimits.ts";
import {KeyAccess} from "./keyAccess.ts";
import type {KeysFile} from "./keysFile.ts";
import {hashSecret, SECRET_PATTERN} from "./secret.ts";

/** What applying a file changed. */
export interface KeysChange {
  added: number;
  updated: number;
  revoked: number;
}

/** The admitted keys. */
export class KeyStore {
  private byHash = new Map<string, KeyAccess>();

  /** `node`: the node's own limits, which each key's narrow. */
  constructor(private readonly node: RequestLimits = DEFAULT_NODE_LIMITS) {}

  /** The key behind a presented secret, undefined when it is malformed or unknown. */
  lookup(secret: string): KeyAccess | undefined {
    return SECRET_PATTERN.test(secret) ? this.byHash.get(hashSecret(secret)) : undefined;
  }

  /** How many keys are admitted. */
  get size(): number {
    return this.byHash.size;
  }

  /** Replaces the keys by those of `file`. */
  apply(file: KeysFile): KeysChange {
    const byId = new Map([...this.byHash.values()].map((access) => [access.id, access]));
    const next = new Map<string, KeyAccess>();
    const change: KeysChange = {added: 0, updated: 0, revoked: 0};
    for (const record of file.keys) {
      const current = byId.get(record.id);
      if (current !== undefined && current.sha256 === record.sha256) {
        current.update(record);
        byId.delete(record.id);
        next.set(record.sha256, current);
        change.updated++;
      } else {
        next.set(record.sha256, new KeyAccess(record, this.node));
        change.added++;
      }
    }
    // Left over: removed from the file, or given a new secret under the same id.
    for (const access of byId.values()) {
      access.revoke();
      change.revoked++;
    }
    this.byHash = next;
    return change;
  }

  /** Revokes every key (the server closes). */
  clear(): void {
    for (const access of this.byHash.values()) access.revoke();
    this.byHash = new Map();
  }
}
