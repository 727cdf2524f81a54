/**
 * The chain: opens or initializes the database, imports blocks one at a time, follows
 * the best chain (docs/protocol/consensus.md §2) and answers `ChainReader` queries. `events` emits `import` after
 * each import, `newHead` after each batch that moved the head has been written, and `stateEdited` after a dev
 * control edited the head's state (docs/architecture.md, "Dev state edits").
 */
import {EventEmitter} from "node:events";
import type {Chainspec, GenesisParams} from "@xchain/chainspec";
import {type KeyValueStore, WriteBatch} from "@xchain/db";
import {BlockExecutor, createChainCommon, type ForkAncestry} from "@xchain/execution";
import type {Block, BlockHeader, Receipt} from "@xchain/primitives";
import {
  defaultStateOptions,
  type FlatStateStatus,
  type FlatStateWriter,
  StateDatabase,
  StateError,
  StateErrorCode,
  type StateReader,
  stateEditor,
} from "@xchain/state";
import {bytesToPrefixedHex, type CacheUsage, equalBytes, type Logger, noopLogger, SerialQueue} from "@xchain/utils";
import {ChainError, ChainErrorCode} from "./errors.ts";
import {FlatStateGenerator} from "./flat/flatGenerator.ts";
import {flatHeadMove} from "./flat/flatHeadMove.ts";
import {describeForkAnchor, type ForkAnchor} from "./fork/anchor.ts";
import {initializeForkStore} from "./fork/initializeForkStore.ts";
import {reanchorWrites} from "./fork/reanchor.ts";
import {buildGenesisBlock} from "./genesis.ts";
import {BlockImporter} from "./import/blockImporter.ts";
import type {BlockExecutorApi} from "./import/executeOnParent.ts";
import {newHeadEvent} from "./import/headChange.ts";
import {initializeStore} from "./initializeStore.ts";
import type {ChainOptions} from "./options.ts";
import {MarkingStore} from "./prune/markingStore.ts";
import {retainedRoots} from "./prune/retainedRoots.ts";
import {type CollectorStats, StateCollector} from "./prune/stateCollector.ts";
import {type StatePin, StateRetention} from "./prune/stateRetention.ts";
import {setHead} from "./setHead.ts";
import {ChainStore} from "./store/chainStore.ts";
import {queryLogs} from "./store/logQuery.ts";
import {StateOverrides} from "./store/stateOverrides.ts";
import type {
  ChainEvents,
  ChainFork,
  ChainHead,
  ChainReader,
  HeadStateEditor,
  ImportResult,
  LocalExecution,
  LogFilter,
  LogQueryControl,
  LogWithContext,
  NewHeadEvent,
  TransactionLocation,
} from "./types.ts";

/** What `Chain.open` works with (its modules). */
export interface ChainModules {
  store: KeyValueStore;
  chainspec: Chainspec;
  /** The network's genesis (`getGenesisParams(name)`, or a custom file's). */
  genesis: GenesisParams;
  /** The world state over `store`; default a `StateDatabase` with its default cache. */
  state?: StateDatabase;
  /** Block execution; default the execution package's `BlockExecutor` on `state`. */
  executor?: BlockExecutorApi;
  /** The local clock in seconds (future-timestamp rule); default the system clock. */
  nowSeconds?: () => number;
  /** Default: writes nothing. */
  logger?: Logger;
}

/** What `Chain.openFork` works with: a chain's modules with a fork anchor in place of a genesis. */
export interface ForkChainModules extends Omit<ChainModules, "genesis" | "state"> {
  /** The world state over `store`, holding the fork's base (`StateModules.base`). */
  state: StateDatabase;
  /** The fork block and R₀ (`buildForkAnchor`), and the upstream's hashes at and below it (BLOCKHASH). */
  fork: ChainFork;
}

/** What opening a store produced, for the constructor. */
interface OpenedChain {
  store: ChainStore;
  state: StateDatabase;
  common: ReturnType<typeof createChainCommon>;
  overrides: StateOverrides;
  head: ChainHead;
  /** The block the chain starts from and the state after it: the genesis, or the fork anchor with R₀. */
  origin: ChainOrigin;
  fork: ChainFork | undefined;
  retention: StateRetention;
  /** The view `store` writes through (its watch tells the collector's sweep what was stored). */
  marking: MarkingStore;
  /** The flat state's writer, undefined when it is off (docs/operations.md §13). */
  flat: FlatStateWriter | undefined;
}

interface ChainOrigin {
  hash: Uint8Array;
  stateRoot: Uint8Array;
}

/** The block store, importer and reader of one network. */
export class Chain implements ChainReader {
  /**
   * `import` after every import, `newHead` after every import that moved the head, `stateEdited` after
   * every edit of the head's state (listeners must not throw).
   */
  readonly events = new EventEmitter<ChainEvents>();
  private readonly queue = new SerialQueue();
  private readonly store: ChainStore;
  private readonly state: StateDatabase;
  private readonly common: ReturnType<typeof createChainCommon>;
  private readonly overrides: StateOverrides;
  private readonly importer: BlockImporter;
  private readonly logger: Logger;
  private currentHead: ChainHead;
  private origin: ChainOrigin;
  private currentFork: ChainFork | undefined;
  private readonly retention: StateRetention;
  private readonly collector: StateCollector;
  private readonly flat: FlatStateWriter | undefined;
  private readonly flatGenerator: FlatStateGenerator | undefined;

  private constructor(modules: Omit<ChainModules, "genesis">, opened: OpenedChain) {
    const {chainspec} = modules;
    const {store, state, overrides, retention, marking} = opened;
    this.retention = retention;
    this.store = store;
    this.state = state;
    this.common = opened.common;
    this.overrides = overrides;
    this.currentHead = opened.head;
    this.origin = opened.origin;
    this.currentFork = opened.fork;
    this.logger = modules.logger ?? noopLogger;
    this.importer = new BlockImporter({
      store,
      chainspec,
      executor: modules.executor ?? new BlockExecutor({}, {chainspec, state}),
      nowSeconds: modules.nowSeconds ?? (() => Math.floor(Date.now() / 1000)),
      stateRootAfter: (header) => {
        // A parent older than the window may be partly collected already: its children are not executed.
        retention.requireServed(header.number, this.currentHead.number);
        return overrides.rootAfter(header);
      },
      rememberWrites: (writes) => state.rememberWrites(writes),
      fork: () => this.currentFork,
      headStateMove: (batch, from, to) =>
        flatHeadMove(this.flat, batch, overrides.rootAfter(from), overrides.rootAfter(to)),
    });
    this.collector = new StateCollector(
      retention,
      {
        kv: modules.store,
        head: () => this.currentHead,
        exclusive: (task) => this.queue.run(task),
        watchStateWrites: () => marking.watchStateWrites(),
        retainedRoots: (cutoff) =>
          retainedRoots(store, overrides, this.currentHead, cutoff, [
            this.origin.stateRoot,
            ...retention.pinnedRoots(),
          ]),
      },
      this.logger.child({module: "state"}),
    );
    this.events.on("newHead", () => this.collector.poke());
    this.collector.poke();
    this.flat = opened.flat;
    this.flat?.follow(overrides.rootAfter(opened.head.header));
    this.flatGenerator =
      this.flat &&
      new FlatStateGenerator(
        this.flat,
        {kv: store.kv, exclusive: (task) => this.queue.run(task)},
        this.logger.child({module: "state"}),
      );
    const pokeGenerator = () => this.flatGenerator?.poke();
    this.events.on("newHead", pokeGenerator);
    this.events.on("stateEdited", pokeGenerator);
    pokeGenerator();
    const {head} = opened;
    const origin = bytesToPrefixedHex(this.origin.hash);
    this.logger.info(
      {genesisHash: origin, head: head.number, headHash: bytesToPrefixedHex(head.hash)},
      `${chainspec.params.name} (chain id ${chainspec.params.chainId}): ${this.currentFork ? `fork of block ${this.currentFork.anchor.number}` : "genesis"} ${origin}, head block ${head.number}`,
    );
  }

  /**
   * The hash of this network's genesis block (printed at start-up); on a forked chain, of its fork
   * anchor (which `reanchor` changes).
   */
  get genesisHash(): Uint8Array {
    return this.origin.hash;
  }

  get fork(): ChainFork | undefined {
    return this.currentFork;
  }

  /**
   * The state the chain starts from: the genesis block's own state root, or R₀ after the fork
   * anchor. A reset (`evm_reset`, `anvil_reset`) returns to it, dropping any dev edit of it.
   */
  initialStateRoot(): Uint8Array {
    return this.origin.stateRoot;
  }

  /**
   * Opens the chain in `modules.store`: writes the genesis block into an empty store; otherwise
   * checks that the stored genesis is this network's (CHAIN_GENESIS_MISMATCH) and loads the head.
   */
  static async open(opts: ChainOptions, modules: ChainModules): Promise<Chain> {
    const {chainspec} = modules;
    const {chainId} = chainspec.params;
    const {retention, kv} = await openRetention(opts, modules.store);
    const store = new ChainStore(kv, {rules: chainspec, chainId}, opts);
    const state = modules.state ?? new StateDatabase(defaultStateOptions, {store: modules.store});
    const common = createChainCommon(chainspec);
    const genesis = await buildGenesisBlock(modules.genesis, chainspec, state, common);
    const head = await initializeStore(store, genesis, chainId);
    const overrides = new StateOverrides(modules.store);
    await overrides.load();
    const origin = {hash: genesis.block.hash(), stateRoot: genesis.block.header.stateRoot};
    const flat = await state.openFlatWriter();
    return new Chain(modules, {
      ...{store, state, common, overrides, head, origin, fork: undefined, retention, marking: kv},
      flat,
    });
  }

  /**
   * Opens a forked chain in `modules.store` (docs/architecture.md, "The forked chain"): writes the
   * fork anchor into an empty store (`initializeForkStore`, one batch); otherwise checks that the
   * store holds this fork (CHAIN_FORK_MISMATCH) and loads the head. The anchor takes the genesis'
   * place (`genesisHash` is its hash); `modules.state` must hold the fork's base
   * (`StateModules.base`). Executions on the chain read BLOCKHASH at or below the anchor from
   * `modules.fork.ancestry` (`Chain.fork`). A store's anchor is read back by `readForkAnchor` (restarts).
   */
  static async openFork(opts: ChainOptions, modules: ForkChainModules): Promise<Chain> {
    const {chainspec, fork} = modules;
    const {chainId} = chainspec.params;
    const {retention, kv} = await openRetention(opts, modules.store);
    const store = new ChainStore(kv, {rules: chainspec, chainId}, opts);
    const state = modules.state;
    const common = createChainCommon(chainspec);
    const overrides = new StateOverrides(modules.store);
    await overrides.load();
    const head = await initializeForkStore(store, overrides, fork.anchor, chainId);
    const origin = {hash: fork.anchor.header.hash(), stateRoot: fork.anchor.initialState.root};
    // A forked state is a delta over its base: it has no flat state.
    return new Chain(modules, {
      store,
      state,
      common,
      overrides,
      head,
      origin,
      fork,
      retention,
      marking: kv,
      flat: undefined,
    });
  }

  /**
   * Moves a forked chain onto another fork block (anvil_reset with `forking`, docs/forking.md §3.2),
   * after every earlier import: in one batch, the new anchor is written as at open (header at F′,
   * `forkAnchor` record, R₀′ and its override), the canonical entries of the old local chain (old
   * anchor to head) are deleted and the head moves to the new anchor. Then `fork` answers the new
   * anchor and ancestry, `newHead` lists the old local blocks as removed (the txpool, the miner's
   * work and the RPC caches start over) and `stateEdited` names R₀′. The state's base must already
   * be the new one (`buildForkAnchor` built `anchor` over it). Old blocks and state stay stored,
   * outside the canonical index. Throws CHAIN_FORK_MISMATCH on a chain from a genesis.
   */
  reanchor(anchor: ForkAnchor, ancestry: ForkAncestry): Promise<ChainHead> {
    return this.queue.run(async () => {
      const current = this.currentFork;
      if (!current) {
        const expected = describeForkAnchor(anchor);
        throw new ChainError(
          {code: ChainErrorCode.FORK_MISMATCH, expected, stored: "none"},
          `this chain runs from its genesis, not a fork: it cannot be re-anchored on ${expected}`,
        );
      }
      const batch = new WriteBatch();
      const move = {oldAnchor: current.anchor.header, current: this.currentHead, anchor};
      const {head, event} = await reanchorWrites(batch, this.store, this.overrides, move);
      const floor = this.lowerStateFloor(batch, anchor.number);
      await this.store.kv.write(batch);
      floor?.applied();
      const stateRoot = anchor.initialState.root;
      this.overrides.remember(anchor.header, stateRoot);
      this.currentFork = {anchor, ancestry};
      this.origin = {hash: head.hash, stateRoot};
      this.currentHead = head;
      this.logger.info(
        {anchor: anchor.number, hash: bytesToPrefixedHex(head.hash), removed: event.removed.length},
        `re-anchored on the fork of ${describeForkAnchor(anchor)}`,
      );
      this.events.emit("newHead", event);
      this.events.emit("stateEdited", {head, stateRoot});
      return head;
    });
  }

  /**
   * Imports a block (or its encoding) after every earlier call has finished. Invalid blocks come
   * back as INVALID_BLOCK with the typed error of the rule they break and leave the database as
   * it was; only faults of the node itself (I/O) throw. `local` is the node's own execution of the
   * block (its miner's template), taken instead of executing it again when it ran exactly this block.
   */
  importBlock(block: Block | Uint8Array, local?: LocalExecution): Promise<ImportResult> {
    return this.queue.run(async () => {
      const started = performance.now();
      const outcome = await this.importer.import(block, this.currentHead, local);
      this.events.emit("import", {result: outcome.result, durationMs: performance.now() - started});
      if (outcome.newHead) {
        const importMs = performance.now() - started;
        const {head, change, outcomes} = outcome.newHead;
        const event = {...newHeadEvent(head, change), importMs, headOutcomes: outcomes};
        this.currentHead = event.head;
        this.logNewHead(event);
        this.events.emit("newHead", event);
      }
      return outcome.result;
    });
  }

  head(): ChainHead {
    return this.currentHead;
  }

  /** A new best block at debug level (the node's block log writes what a person reads at info). */
  private logNewHead({head, added, removed}: NewHeadEvent): void {
    this.logger.debug(
      {number: head.number, hash: bytesToPrefixedHex(head.hash), removed: removed.length, added: added.length},
      `new head block ${head.number}`,
    );
  }

  /**
   * Makes the stored block `hash` the head after every earlier import (regtest `evm_revert` and
   * `evm_reset`): the canonical index moves in one batch and `newHead` lists the removed blocks
   * (see `setHead.ts`). With `stateRoot` (a stored state root: the one a snapshot saw), that state
   * becomes the state after the target, written in the same batch, and `stateEdited` follows when it
   * changed; without it the target keeps whatever override it has. Throws CHAIN_UNKNOWN_BLOCK for a
   * block that is not stored, STATE_ROOT_MISSING for a state root that is not.
   */
  setHead(hash: Uint8Array, options: {stateRoot?: Uint8Array} = {}): Promise<ChainHead> {
    return this.queue.run(async () => {
      const {stateRoot} = options;
      if (stateRoot && !(await this.state.hasRoot(stateRoot))) {
        const root = bytesToPrefixedHex(stateRoot);
        throw new StateError({code: StateErrorCode.ROOT_MISSING, root}, `state root ${root} is not stored`);
      }
      const batch = new WriteBatch();
      const moved = await setHead(this.store, hash, this.currentHead, batch);
      const target = moved?.head ?? this.currentHead;
      // A whole state given for the target serves it however old; without one, its own must still be stored.
      const floor = stateRoot ? this.lowerStateFloor(batch, target.number) : undefined;
      if (!stateRoot) this.retention.requireServed(target.number, target.number);
      const restored =
        stateRoot && !equalBytes(stateRoot, this.overrides.rootAfter(target.header)) ? stateRoot : undefined;
      if (restored) this.overrides.write(batch, target.header, restored);
      const flatMoved = await flatHeadMove(
        this.flat,
        batch,
        this.overrides.rootAfter(this.currentHead.header),
        restored ?? this.overrides.rootAfter(target.header),
      );
      if (batch.size > 0) await this.store.kv.write(batch);
      flatMoved();
      floor?.applied();
      if (restored) this.overrides.remember(target.header, restored);
      if (moved) {
        this.currentHead = moved.head;
        this.events.emit("newHead", moved.event);
      }
      if (restored) this.events.emit("stateEdited", {head: this.currentHead, stateRoot: restored});
      return this.currentHead;
    });
  }

  /**
   * Edits the state after the head, after every earlier import (the dev controls: anvil_setBalance,
   * setCode, setStorageAt…): `edit` gets the head's effective state; what it changed is committed and
   * written in one batch with the head's state override, which reads of the head's state and the
   * blocks mined on it start from. Then `stateEdited`. A throw of `edit` writes nothing.
   */
  editHeadState<T>(edit: (state: HeadStateEditor) => Promise<T>): Promise<T> {
    return this.queue.run(async () => {
      const head = this.currentHead;
      // One edit's worth of caches; never released, so that import's warm session stays where it is.
      const session = await this.state.openSession(this.overrides.rootAfter(head.header), this.common, {
        transient: true,
      });
      const result = await edit(stateEditor(session));
      const {root, writes} = await session.commit();
      const batch = new WriteBatch().append(writes);
      this.overrides.write(batch, head.header, root);
      const flatMoved = await flatHeadMove(this.flat, batch, this.overrides.rootAfter(head.header), root);
      await this.store.kv.write(batch);
      flatMoved();
      this.overrides.remember(head.header, root);
      this.events.emit("stateEdited", {head, stateRoot: root});
      return result;
    });
  }

  /** Hashes of every stored block at `number`, canonical or not (the miner's uncle candidates). */
  blockHashesAt(number: number): Promise<Uint8Array[]> {
    return this.store.blocks.hashesAt(number);
  }

  getHeader(hash: Uint8Array): Promise<BlockHeader | undefined> {
    return this.store.blocks.getHeader(hash);
  }

  /** The memory of the chain's caches (decoded headers, logs) against their budgets. */
  cacheUsage(): CacheUsage[] {
    return [
      {cache: "chain.headers", ...this.store.blocks.headerCacheBytes()},
      {cache: "chain.logs", bytes: this.store.logs.bytes(), budgetBytes: this.store.logs.maxBytes},
    ];
  }

  async getHeaderByNumber(number: number): Promise<BlockHeader | undefined> {
    const hash = await this.store.canonical.hashAt(number);
    return hash && this.store.blocks.getHeader(hash);
  }

  getBlock(hash: Uint8Array): Promise<Block | undefined> {
    return this.store.blocks.getBlock(hash);
  }

  async getBlockByNumber(number: number): Promise<Block | undefined> {
    const hash = await this.store.canonical.hashAt(number);
    return hash && this.store.blocks.getBlock(hash);
  }

  getReceipts(blockHash: Uint8Array): Promise<Receipt[] | undefined> {
    return this.store.receipts.get(blockHash);
  }

  getTotalDifficulty(blockHash: Uint8Array): Promise<bigint | undefined> {
    return this.store.totalDifficulty.get(blockHash);
  }

  async getTransactionLocation(txHash: Uint8Array): Promise<TransactionLocation | undefined> {
    const location = await this.store.canonical.transactionLocation(txHash);
    const header = location && (await this.store.blocks.getHeader(location.blockHash));
    return location && header && {blockHash: location.blockHash, blockNumber: header.number, index: location.index};
  }

  getLogs(filter: LogFilter, control: LogQueryControl = {}): Promise<LogWithContext[]> {
    return queryLogs(this.store, filter, this.currentHead.number, control);
  }

  /** The state after the block `blockHash`; throws CHAIN_UNKNOWN_BLOCK for a block that is not stored. */
  async stateAt(blockHash: Uint8Array): Promise<StateReader> {
    const header = await this.store.blocks.getHeader(blockHash);
    if (!header) {
      const hash = bytesToPrefixedHex(blockHash);
      throw new ChainError({code: ChainErrorCode.UNKNOWN_BLOCK, hash}, `block ${hash} is not stored`);
    }
    return this.stateAfter(header);
  }

  async stateAfter(header: BlockHeader): Promise<StateReader> {
    return this.state.reader(this.stateRootAfter(header), this.common);
  }

  /** Throws STATE_PRUNED for a block older than `oldestStateBlock()`. */
  stateRootAfter(header: BlockHeader): Uint8Array {
    this.retention.requireServed(header.number, this.currentHead.number);
    return this.overrides.rootAfter(header);
  }

  /** The oldest block whose state is served (docs/operations.md §12): 0 on an archive node that never pruned. */
  oldestStateBlock(): number {
    return this.retention.oldestStateBlock(this.currentHead.number);
  }

  /**
   * Keeps the state at `root` through state collections until the pin is released (a dev snapshot's
   * state, which `setHead` may restore after its block left the window). Pin only the head's state.
   */
  retainState(root: Uint8Array): StatePin {
    return this.retention.pin(root);
  }

  /** The state collector's counters (the node's metrics). */
  collectorStats(): CollectorStats {
    return this.collector.stats();
  }

  /** Stops the state collector between two steps (before the store closes); resolves once it has. */
  stopCollecting(): Promise<void> {
    return this.collector.stop();
  }

  /** What the flat state is doing (undefined when it is off): the node's metrics. */
  flatStateStatus(): (FlatStateStatus & {steps: number}) | undefined {
    const status = this.flat?.status();
    return status && {...status, steps: this.flatGenerator?.steps ?? 0};
  }

  /** Resolves once the flat state's generation has nothing left to do for now. */
  flatStateIdle(): Promise<void> {
    return this.flatGenerator?.idle() ?? Promise.resolve();
  }

  /** Stops the flat state's generation between two steps (before the store closes). */
  stopFlatState(): Promise<void> {
    return this.flatGenerator?.stop() ?? Promise.resolve();
  }

  /** Resolves once the state collector has nothing left to do for now. */
  collectorIdle(): Promise<void> {
    return this.collector.idle();
  }

  /**
   * Adds to `batch` the record that serves states from block `number` again, when the head moves there
   * with a whole state (a revert to a snapshot, a reset, a re-anchor) below the states a collection took.
   */
  private lowerStateFloor(batch: WriteBatch, number: number): {applied(): void} | undefined {
    const record = this.retention.record;
    if (number >= record.prunedBelow) return undefined;
    return this.retention.write(batch, {...record, prunedBelow: number, cutoff: Math.min(record.cutoff, number)});
  }
}

/** The chain's retention and the view of its store that marks writes of state while a collection runs. */
async function openRetention(
  opts: ChainOptions,
  store: KeyValueStore,
): Promise<{retention: StateRetention; kv: MarkingStore}> {
  const retention = await StateRetention.load(opts.retention, store);
  return {retention, kv: new MarkingStore(store, () => retention.marking)};
}
