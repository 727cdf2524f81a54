import {type BatchOp, Bucket, bucketKey, type KeyValueStore} from "@xchain/db";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {StateError, StateErrorCode} from "./errors.ts";
import type {NodeCache} from "./nodeCache.ts";
import {EMPTY_TRIE_ROOT} from "./trie.ts";
import type {TrieNodeSource} from "./trieLookup.ts";

const EMPTY_TRIE_ROOT_HEX = bytesToHex(EMPTY_TRIE_ROOT);

/**
 * The persisted trie nodes (bucket `stateTrie`) behind a shared `NodeCache`. Sessions and readers
 * read through it; nothing here writes to the store.
 */
export class TrieNodeStore {
  constructor(
    private readonly store: KeyValueStore,
    private readonly cache: NodeCache,
  ) {}

  /**
   * The node (or code) under `keyHex` (unprefixed hex, as ethereumjs passes it), from the cache or
   * the store. Every key ethereumjs asks for is referenced by stored state, so a miss means a
   * damaged database and throws NODE_MISSING (ethereumjs itself would read a missing node as "no
   * such account"). The one exception is the empty-trie root, which ethereumjs looks up for every
   * empty trie and which has no node: undefined.
   */
  async get(keyHex: string): Promise<Uint8Array | undefined> {
    if (keyHex === EMPTY_TRIE_ROOT_HEX) return undefined;
    return this.cache.get(keyHex) ?? this.fromStore(keyHex);
  }

  /** The node under `keyHex` when the cache has it (no store read, no promise). */
  cached(keyHex: string): Uint8Array | undefined {
    return this.cache.get(keyHex);
  }

  /** `get` past the cache: reads the store and caches what it read (a miss throws NODE_MISSING). */
  async fromStore(keyHex: string): Promise<Uint8Array> {
    const value = await this.find(keyHex);
    if (value === undefined) {
      throw new StateError({code: StateErrorCode.NODE_MISSING, key: keyHex}, `state entry ${keyHex} is missing`);
    }
    return value;
  }

  /**
   * The entry under `keyHex` from the cache or the store, undefined when it is not stored: for an
   * entry that may rightly be absent (a forked state's code, which may be its base's).
   */
  async find(keyHex: string): Promise<Uint8Array | undefined> {
    const cached = this.cache.get(keyHex);
    if (cached !== undefined) return cached;
    const value = await this.store.get(Bucket.stateTrie, hexToBytes(keyHex));
    if (value !== undefined) this.cache.set(keyHex, value);
    return value;
  }

  /**
   * Whether `key` is in the store itself. The cache is not asked: it also holds nodes of sessions
   * that were committed but never persisted, which are correct content but not stored state.
   */
  async isStored(key: Uint8Array): Promise<boolean> {
    return (await this.store.get(Bucket.stateTrie, key)) !== undefined;
  }

  /**
   * A node source that does not fill the cache: for a walk that reads every node once (the flat
   * state's generation), which would otherwise push out the nodes that block import and reads reuse.
   */
  passThrough(): TrieNodeSource {
    return {
      cachedNode: (hash) => this.cache.get(bytesToHex(hash)),
      node: (hash) => this.store.get(Bucket.stateTrie, hash),
      manyNodes: (hashes) => this.store.getMany(Bucket.stateTrie, hashes),
    };
  }

  /** Caches nodes a session just produced (content-addressed, so correct whether or not they get persisted). */
  remember(entries: Iterable<[string, Uint8Array]>): void {
    for (const [keyHex, value] of entries) this.cache.set(keyHex, value);
  }
}

/** The trie key (unprefixed hex) and value a `trieWrite` op stores; undefined for any other op. */
export function trieWriteEntry(op: BatchOp): [string, Uint8Array] | undefined {
  if (op.type !== "put" || op.key[0] !== Bucket.stateTrie) return undefined;
  return [bytesToHex(op.key.subarray(1)), op.value];
}

/** The batch op that stores `value` under the trie key `keyHex`. */
export function trieWrite(keyHex: string, value: Uint8Array): BatchOp {
  return {type: "put", key: bucketKey(Bucket.stateTrie, hexToBytes(keyHex)), value};
}
