import type {Common} from "@ethereumjs/common";
import {Caches, CacheType, MerkleStateManager} from "@ethereumjs/statemanager";
import type {KeyValueStore} from "@xchain/db";
import {bytesToHex, bytesToPrefixedHex, equalBytes} from "@xchain/utils";
import {checkLength, StateError, StateErrorCode} from "./errors.ts";
import {NodeCache, type NodeCacheStats} from "./nodeCache.ts";
import {TrieNodeStore} from "./nodeStore.ts";
import type {StateOptions} from "./options.ts";
import {CodeCache, TrieStateReader} from "./reader.ts";
import {ReadOnlyTrieDB} from "./readOnlyDb.ts";
import {TrieStateSession} from "./session.ts";
import {SessionTrieDB} from "./sessionDb.ts";
import {EMPTY_TRIE_ROOT, openTrie} from "./trie.ts";
import type {StateReader, StateSession, StateSource} from "./types.ts";

/** What a `StateDatabase` reads from. */
export interface StateModules {
  /** The node's store; only the `stateTrie` bucket is read. */
  store: KeyValueStore;
}

/**
 * World state on the Ethereum MPT over the `stateTrie` bucket of a `KeyValueStore`. It never
 * writes to the store: sessions return their trie writes for the caller's batch. Nodes are never
 * deleted, so every root ever persisted stays readable.
 */
export class StateDatabase implements StateSource {
  private readonly cache: NodeCache;
  private readonly nodes: TrieNodeStore;
  private readonly code = new CodeCache(CODE_CACHE_BYTES);
  /** The most recent readers by root: RPC reads the head's state over and over (caches stay warm). */
  private readonly readers = new Map<string, StateReader>();
  private lastReader: StateReader | undefined;
  /** The last released session, reusable by the next session opened at its root (warm caches). */
  private warm: {root: string; common: Common; session: TrieStateSession} | undefined;

  constructor(opts: StateOptions, {store}: StateModules) {
    this.cache = new NodeCache(opts.nodeCacheBytes);
    this.nodes = new TrieNodeStore(store, this.cache);
  }

  /** A writable session at `root`; throws STATE_ROOT_MISSING when that state is not stored. */
  async openSession(root: Uint8Array, common: Common, options: {takeReleased?: boolean} = {}): Promise<StateSession> {
    await this.requireRoot(root);
    const warm = this.warm;
    // The root is stored, so the released session's writes are persisted: it can go on from there
    // with its account and storage caches warm (consecutive blocks share most of their reads).
    if ((options.takeReleased ?? true) && warm && warm.common === common && warm.root === bytesToHex(root)) {
      this.warm = undefined;
      warm.session.forgetPersisted();
      return warm.session;
    }
    const db = new SessionTrieDB(this.nodes);
    const trie = await openTrie(db, root, common);
    const stateManager = new MerkleStateManager({trie, common, caches: boundedCaches()});
    return new TrieStateSession(stateManager, trie, db, this.nodes, (session, committed) => {
      this.warm = {root: bytesToHex(committed), common, session};
    });
  }

  /** A read-only view at `root`; throws STATE_ROOT_MISSING when that state is not stored. */
  async reader(root: Uint8Array, common: Common): Promise<StateReader> {
    // Most reads are at the head: its reader is found without hashing the root into a key.
    const last = this.lastReader;
    if (last !== undefined && equalBytes(last.root, root)) return last;
    const key = bytesToHex(root);
    // A reader only takes the trie's hashing from `common`, the same in every Common of a node.
    const cached = this.readers.get(key);
    if (cached) {
      this.lastReader = cached;
      return cached;
    }
    await this.requireRoot(root);
    const trie = await openTrie(new ReadOnlyTrieDB(this.nodes), root, common);
    const reader = new TrieStateReader(Uint8Array.from(root), trie, this.code);
    this.readers.delete(key);
    this.readers.set(key, reader);
    this.lastReader = reader;
    // Map order is insertion order: the first key is the least recently created reader.
    if (this.readers.size > MAX_CACHED_READERS) this.readers.delete(this.readers.keys().next().value as string);
    return reader;
  }

  /** Whether the root node of `root` is in the store (the empty-trie root always is). */
  async hasRoot(root: Uint8Array): Promise<boolean> {
    checkLength(root, 32, "root");
    return equalBytes(root, EMPTY_TRIE_ROOT) || this.nodes.isStored(root);
  }

  /** Size and hit counters of the shared trie-node cache. */
  cacheStats(): NodeCacheStats {
    return this.cache.stats();
  }

  private async requireRoot(root: Uint8Array): Promise<void> {
    if (!(await this.hasRoot(root))) {
      const hex = bytesToPrefixedHex(root);
      throw new StateError({code: StateErrorCode.ROOT_MISSING, root: hex}, `state root ${hex} is not stored`);
    }
  }
}

/** Budget of the contract-code cache the readers share. */
const CODE_CACHE_BYTES = 32 * 1024 * 1024;

/** Readers kept for reuse (the head and a few recent blocks). */
const MAX_CACHED_READERS = 4;

/** LRU caches, so that a session reused block after block keeps a bounded working set. */
function boundedCaches(): Caches {
  return new Caches({
    account: {type: CacheType.LRU, size: 100_000},
    storage: {type: CacheType.LRU, size: 50_000},
    code: {type: CacheType.LRU, size: 5_000},
  });
}
