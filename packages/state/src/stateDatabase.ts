import type {Common} from "@ethereumjs/common";
import type {Caches} from "@ethereumjs/statemanager";
import {type BatchOp, Bucket, type KeyValueStore} from "@xchain/db";
import {bytesToHex, bytesToPrefixedHex, type CacheUsage, equalBytes} from "@xchain/utils";
import {BatchFlushStateManager} from "./batchStateManager.ts";
import {LONG_LIVED_CACHES, ONE_BLOCK_CACHES, SessionCachePool} from "./cachePool.ts";
import {checkLength, StateError, StateErrorCode} from "./errors.ts";
import {decodeFlatMeta, FLAT_META_KEY} from "./flat/flatMeta.ts";
import {FlatStateWriter} from "./flat/flatState.ts";
import {FlatOverlayView, FlatRootView, type FlatSource, type StateReadCounts} from "./flat/flatView.ts";
import {flatStateDiff} from "./flat/trieDiff.ts";
import {type FlatVerification, verifyFlatState} from "./flat/verifyFlat.ts";
import {baseIdOf, forkStateRoot, type InitialForkAccount} from "./fork/forkMarker.ts";
import {ForkStateSession} from "./fork/forkSession.ts";
import {ForkStateReader} from "./fork/forkStateReader.ts";
import type {ForkBaseHolder, StateBase} from "./fork/stateBase.ts";
import {NodeCache, type NodeCacheStats} from "./nodeCache.ts";
import {TrieNodeStore, trieWriteEntry} from "./nodeStore.ts";
import type {StateOptions} from "./options.ts";
import {CodeCache, TrieStateReader} from "./reader.ts";
import {ReadOnlyTrieDB} from "./readOnlyDb.ts";
import {TrieStateSession} from "./session.ts";
import {SessionTrieDB} from "./sessionDb.ts";
import {dumpState, type StateDump, type StateDumpLimits} from "./stateDump.ts";
import {EMPTY_TRIE_ROOT, openTrie} from "./trie.ts";
import type {StateCommit, StateReader, StateSession, StateSource} from "./types.ts";

/** What a `StateDatabase` reads from. */
export interface StateModules {
  /** The node's store; the `stateTrie` bucket is read, and `preimage` by dumps. */
  store: KeyValueStore;
  /**
   * The base of forked states (docs/architecture.md, "The forked state"). Without it every root is
   * an ordinary state and nothing is looked up; with it, a root whose trie holds the fork marker
   * opens as a forked state over the base the holder names.
   */
  base?: ForkBaseHolder;
}

/**
 * World state on the Ethereum MPT over the `stateTrie` bucket of a `KeyValueStore`. It never
 * writes to the store: sessions return their trie writes for the caller's batch. It deletes nothing;
 * on a pruned node the chain's state collector deletes the states older than its window
 * (docs/operations.md §12), and the chain refuses to read them.
 */
export class StateDatabase implements StateSource {
  private readonly cache: NodeCache;
  private readonly nodes: TrieNodeStore;
  private readonly code: CodeCache;
  /** The most recent readers by root: RPC reads the head's state over and over (caches stay warm). */
  private readonly readers = new Map<string, TrieStateReader | ForkStateReader>();
  private lastReader: TrieStateReader | ForkStateReader | undefined;
  /** States computed but not stored (the pending block's), by root hex, oldest first: see `stageUnpersisted`. */
  private readonly staged = new Map<string, ReadonlyMap<string, Uint8Array>>();
  /** The last released session, reusable by the next session opened at its root (warm caches). */
  private warm: {root: string; common: Common; session: TrieStateSession; caches: Caches} | undefined;
  /** The caches of sessions that can no longer be reused, emptied for the next cold session. */
  private readonly cachePool = new SessionCachePool();
  /** The last released forked session, reusable as `warm` is. */
  private warmFork: {root: string; session: ForkStateSession} | undefined;
  /** The marker's base id (null: an ordinary state) by root hex, for the last roots asked. */
  private readonly markers = new Map<string, Uint8Array | null>();
  private readonly baseHolder: ForkBaseHolder | undefined;
  /** Whether readers ask the flat state first: on by option, never for forked states (their trie is a delta). */
  private readonly flat: boolean;
  private readonly counts: StateReadCounts = {flat: 0, trie: 0};

  private readonly store: KeyValueStore;

  constructor(
    private readonly opts: StateOptions,
    {store, base}: StateModules,
  ) {
    this.store = store;
    this.baseHolder = base;
    this.cache = new NodeCache(opts.nodeCacheBytes);
    this.code = new CodeCache(opts.codeCacheBytes);
    this.nodes = new TrieNodeStore(store, this.cache);
    this.flat = opts.flatState && base === undefined;
  }

  /** A writable session at `root`; throws STATE_ROOT_MISSING when that state is not stored. */
  async openSession(root: Uint8Array, common: Common, options: {transient?: boolean} = {}): Promise<StateSession> {
    await this.requireRoot(root);
    const base = await this.forkBaseAt(root, new ReadOnlyTrieDB(this.nodes));
    if (base !== undefined) return this.openForkSession(root, base, options.transient === true);
    const warm = this.warm;
    // The root is stored, so the released session's writes are persisted: it can go on from there
    // with its account and storage caches warm (consecutive blocks share most of their reads).
    if (!options.transient && warm && warm.common === common && warm.root === bytesToHex(root)) {
      this.warm = undefined;
      warm.session.forgetPersisted();
      return warm.session;
    }
    const db = new SessionTrieDB(this.nodes);
    const trie = await openTrie(db, root, common);
    // Allocating an LRU cache costs time in proportion to its size (3.4 ms for the long-lived ones):
    // a one-block session gets caches sized for one block, a long-lived one reuses emptied ones.
    const caches = this.cachePool.take(options.transient ? ONE_BLOCK_CACHES : LONG_LIVED_CACHES);
    const stateManager = new BatchFlushStateManager({trie, common, caches});
    if (this.opts.recordPreimages) stateManager.preimages = new Map();
    return new TrieStateSession(stateManager, trie, db, this.nodes, (session, committed) => {
      const displaced = this.warm;
      this.warm = {root: bytesToHex(committed), common, session, caches};
      // The displaced session was released (its owner is done with it) and is no longer reusable.
      if (displaced !== undefined && displaced.session !== session) this.cachePool.give(displaced.caches);
    });
  }

  /** A read-only view at `root`; throws STATE_ROOT_MISSING when that state is not stored. */
  async reader(root: Uint8Array, common: Common): Promise<StateReader> {
    // Most reads are at the head: its reader is found without hashing the root into a key.
    const last = this.lastReader;
    if (last !== undefined && equalBytes(last.root, root) && this.onCurrentBase(last)) return last;
    const key = bytesToHex(root);
    // A reader only takes the trie's hashing from `common`, the same in every Common of a node.
    const cached = this.readers.get(key);
    if (cached && this.onCurrentBase(cached)) {
      this.lastReader = cached;
      return cached;
    }
    const staged = this.staged.get(key);
    if (!staged) await this.requireRoot(root);
    const db = new ReadOnlyTrieDB(this.nodes, staged);
    const base = await this.forkBaseAt(root, db);
    const reader =
      base !== undefined
        ? new ForkStateReader(
            Uint8Array.from(root),
            db,
            this.code,
            base,
            this.opts.readerCacheBytes / MAX_CACHED_READERS,
          )
        : await this.trieReader(
            root,
            db,
            common,
            staged === undefined ? this.rootFlat(root) : await this.stagedFlat(root, db),
          );
    this.readers.delete(key);
    this.readers.set(key, reader);
    this.lastReader = reader;
    // Map order is insertion order: the first key is the least recently created reader.
    if (this.readers.size > MAX_CACHED_READERS) this.readers.delete(this.readers.keys().next().value as string);
    return reader;
  }

  /**
   * Whether a cached reader may still be used: a forked one only over the base the holder answers now
   * (a re-fork replaces the base, even at the same fork block: the old one's source is closed).
   */
  private onCurrentBase(reader: StateReader): boolean {
    return !(reader instanceof ForkStateReader) || reader.base === this.baseHolder?.current();
  }

  /** The flat state as readers at the stored `root` see it (undefined when it is off). */
  private rootFlat(root: Uint8Array): FlatSource | undefined {
    return this.flat ? new FlatRootView(this.store, Uint8Array.from(root), this.counts) : undefined;
  }

  /**
   * The flat source of a staged state: its diff from the flat state's root (the head's, which the
   * pending block builds on) over the flat state; undefined when there is none or the diff is too large.
   */
  private async stagedFlat(root: Uint8Array, db: ReadOnlyTrieDB): Promise<FlatSource | undefined> {
    if (!this.flat) return undefined;
    const meta = decodeFlatMeta(await this.store.get(Bucket.flatState, FLAT_META_KEY));
    if (meta === undefined || !meta.complete) return undefined;
    // A head that moved on and had its old state collected meanwhile: no flat source, the trie serves.
    const writes = await flatStateDiff(db, meta.root, root, MAX_STAGED_DIFF_WORK).catch((e: unknown) => {
      if (e instanceof StateError && e.code === StateErrorCode.NODE_MISSING) return undefined;
      throw e;
    });
    if (writes === undefined) return undefined;
    const changed = new Map(writes.map(({key, value}) => [bytesToHex(key), value]));
    return new FlatOverlayView(changed, new FlatRootView(this.store, meta.root, this.counts), this.counts);
  }

  private async trieReader(
    root: Uint8Array,
    db: ReadOnlyTrieDB,
    common: Common,
    flat: FlatSource | undefined,
  ): Promise<TrieStateReader> {
    const trie = await openTrie(db, root, common);
    return new TrieStateReader(
      Uint8Array.from(root),
      trie,
      db,
      this.code,
      this.opts.readerCacheBytes / MAX_CACHED_READERS,
      this.counts,
      flat,
    );
  }

  /**
   * The writer of the flat state (the chain's, docs/operations.md §13); undefined when it is off (the
   * option, or a forked chain's state).
   */
  async openFlatWriter(): Promise<FlatStateWriter | undefined> {
    if (!this.flat) return undefined;
    return FlatStateWriter.open(this.store, new ReadOnlyTrieDB(this.nodes), this.nodes.passThrough());
  }

  /** The flat state compared with the trie at its root, when complete (`xchain db verify`). */
  verifyFlatState(): Promise<FlatVerification> {
    return verifyFlatState(this.store, this.nodes.passThrough());
  }

  /** How the readers' cache misses were served so far: by the flat state or by walking the trie. */
  readCounts(): StateReadCounts {
    return {...this.counts};
  }

  /**
   * The base of the state at `root` when it is a forked state, undefined for an ordinary one; a
   * root of another base throws FORK_BASE_MISMATCH. Without a base holder nothing is looked up.
   */
  private async forkBaseAt(root: Uint8Array, nodes: ReadOnlyTrieDB): Promise<StateBase | undefined> {
    if (this.baseHolder === undefined) return undefined;
    const key = bytesToHex(root);
    let id = this.markers.get(key);
    if (id === undefined) {
      id = (await baseIdOf(nodes, root)) ?? null;
      this.markers.set(key, id);
      if (this.markers.size > MAX_MARKERS) this.markers.delete(this.markers.keys().next().value as string);
    }
    if (id === null) return undefined;
    const base = this.baseHolder.current();
    if (base === undefined || !equalBytes(base.id, id)) {
      const expected = base === undefined ? "no fork" : bytesToPrefixedHex(base.id);
      const actual = bytesToPrefixedHex(id);
      throw new StateError(
        {code: StateErrorCode.FORK_BASE_MISMATCH, root: bytesToPrefixedHex(root), expected, actual},
        `the state ${bytesToPrefixedHex(root)} is forked from base ${actual}, this node forks ${expected}`,
      );
    }
    return base;
  }

  private openForkSession(root: Uint8Array, base: StateBase, transient: boolean): ForkStateSession {
    const warm = this.warmFork;
    // As for trie sessions: a transient one (tracing) leaves the released session to the next block.
    if (!transient && warm && warm.root === bytesToHex(root) && warm.session.base === base) {
      this.warmFork = undefined;
      warm.session.forgetPersisted();
      return warm.session;
    }
    const readerAt = (at: Uint8Array, unpersisted: ReadonlyMap<string, Uint8Array>): ForkStateReader =>
      new ForkStateReader(
        Uint8Array.from(at),
        new ReadOnlyTrieDB(this.nodes, unpersisted),
        this.code,
        base,
        this.opts.readerCacheBytes / MAX_CACHED_READERS,
      );
    return new ForkStateSession(readerAt(root, new Map()), {
      readerAt,
      remember: (entries) => this.nodes.remember(entries),
      recordPreimages: this.opts.recordPreimages,
      onRelease: (session, committed) => {
        this.warmFork = {root: bytesToHex(committed), session};
      },
    });
  }

  /**
   * Makes a state that was computed but is not stored readable: `reader(commit.root)` serves the
   * commit's trie nodes from memory and the rest from the store (the pending block, docs/rpc.md §4.3).
   * `openSession` and `hasRoot` ignore it, so nothing stored ever comes to depend on these nodes.
   * The last few staged states are kept, so a request that has just seen one can still read it.
   */
  stageUnpersisted(commit: StateCommit): void {
    const key = bytesToHex(commit.root);
    if (this.staged.has(key)) return;
    const nodes = new Map<string, Uint8Array>();
    for (const op of commit.writes) {
      const entry = trieWriteEntry(op);
      if (entry) nodes.set(entry[0], entry[1]);
    }
    this.staged.set(key, nodes);
    if (this.staged.size > MAX_STAGED_STATES) this.staged.delete(this.staged.keys().next().value as string);
  }

  /**
   * Caches the trie nodes of `writes`, a state another database's session computed (the miner's
   * assembly of a block its import then stored without executing it again): reads of that state
   * find them as they find the nodes of this database's own sessions (content-addressed, so correct
   * whether or not they are stored).
   */
  rememberWrites(writes: readonly BatchOp[]): void {
    const entries: [string, Uint8Array][] = [];
    for (const op of writes) {
      const entry = trieWriteEntry(op);
      if (entry) entries.push(entry);
    }
    this.nodes.remember(entries);
  }

  /**
   * The first state of a fork on the base `baseId` (the marker leaf and `accounts`, see
   * `forkStateRoot`); nothing is written: store `writes` in the caller's batch.
   */
  forkRoot(baseId: Uint8Array, accounts: Iterable<[Uint8Array, InitialForkAccount]> = []): Promise<StateCommit> {
    return forkStateRoot(new ReadOnlyTrieDB(this.nodes), baseId, accounts);
  }

  /**
   * Whether `root` is a staged state (`stageUnpersisted`): readable through this database only, not
   * through another `StateDatabase` over the same store (a call worker's). Synchronous: asked per call.
   */
  isStaged(root: Uint8Array): boolean {
    return this.staged.size > 0 && this.staged.has(bytesToHex(root));
  }

  /** Whether the root node of `root` is in the store (the empty-trie root always is). */
  async hasRoot(root: Uint8Array): Promise<boolean> {
    checkLength(root, 32, "root");
    return equalBytes(root, EMPTY_TRIE_ROOT) || this.nodes.isStored(root);
  }

  /**
   * The state at the stored `root` listed by address and slot, as far as preimages name it (see
   * `stateDump.ts`); throws DUMP_TOO_LARGE past `limits`. A forked state lists its delta only (the
   * node's writes, deletions apart), the code of its base's accounts read from the base.
   */
  async dump(root: Uint8Array, limits: StateDumpLimits): Promise<StateDump> {
    await this.requireRoot(root);
    return dumpState(this.store, root, limits, await this.forkBaseAt(root, new ReadOnlyTrieDB(this.nodes)));
  }

  /** Size and hit counters of the shared trie-node cache. */
  cacheStats(): NodeCacheStats {
    return this.cache.stats();
  }

  /**
   * The memory of its caches against their budgets, labelled `<prefix>.trieNodes`, `.code` and
   * `.readers` (the readers kept; one just dropped may live on while a request still uses it).
   */
  cacheUsage(prefix: string): CacheUsage[] {
    let readerBytes = 0;
    for (const reader of this.readers.values()) readerBytes += reader.cacheBytes();
    return [
      {cache: `${prefix}.trieNodes`, bytes: this.cache.stats().bytes, budgetBytes: this.opts.nodeCacheBytes},
      {cache: `${prefix}.code`, bytes: this.code.bytes(), budgetBytes: this.opts.codeCacheBytes},
      {cache: `${prefix}.readers`, bytes: readerBytes, budgetBytes: this.opts.readerCacheBytes},
    ];
  }

  private async requireRoot(root: Uint8Array): Promise<void> {
    if (!(await this.hasRoot(root))) {
      const hex = bytesToPrefixedHex(root);
      throw new StateError({code: StateErrorCode.ROOT_MISSING, root: hex}, `state root ${hex} is not stored`);
    }
  }
}

/** Unstored states kept readable: the pending block's current state and the ones just before it. */
const MAX_STAGED_STATES = 3;

/** Nodes and leaves the diff of a staged state from the flat state's root may visit (a pending block's writes). */
const MAX_STAGED_DIFF_WORK = 100_000;

/** Readers kept for reuse (the head and a few recent blocks). */
const MAX_CACHED_READERS = 4;

/** Roots whose fork marker (or its absence) is remembered: the head's and the few read around it. */
const MAX_MARKERS = 64;
