/**
 * The chain: opens or initializes the database, imports blocks one at a time, follows
 * the best chain (docs/protocol/consensus.md §2) and answers `ChainReader` queries. `events` emits `import` after
 * each import and `newHead` after each batch that moved the head has been written.
 */
import {EventEmitter} from "node:events";
import type {Chainspec, GenesisParams} from "@xchain/chainspec";
import type {KeyValueStore} from "@xchain/db";
import {BlockExecutor, createChainCommon} from "@xchain/execution";
import type {Block, BlockHeader, Receipt} from "@xchain/primitives";
import {defaultStateOptions, StateDatabase, type StateReader} from "@xchain/state";
import {bytesToPrefixedHex, type CacheUsage, type Logger, noopLogger, SerialQueue} from "@xchain/utils";
import {ChainError, ChainErrorCode} from "./errors.ts";
import {buildGenesisBlock} from "./genesis.ts";
import {BlockImporter} from "./import/blockImporter.ts";
import type {BlockExecutorApi} from "./import/executeOnParent.ts";
import {newHeadEvent} from "./import/headChange.ts";
import {initializeStore} from "./initializeStore.ts";
import type {ChainOptions} from "./options.ts";
import {setHead} from "./setHead.ts";
import {ChainStore} from "./store/chainStore.ts";
import {queryLogs} from "./store/logQuery.ts";
import type {
  ChainEvents,
  ChainHead,
  ChainReader,
  ImportResult,
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

/** The block store, importer and reader of one network. */
export class Chain implements ChainReader {
  /** `import` after every import, `newHead` after every import that moved the head (listeners must not throw). */
  readonly events = new EventEmitter<ChainEvents>();
  private readonly queue = new SerialQueue();

  private constructor(
    private readonly store: ChainStore,
    private readonly state: StateDatabase,
    private readonly common: ReturnType<typeof createChainCommon>,
    private readonly importer: BlockImporter,
    /** The hash of this network's genesis block (printed at start-up). */
    readonly genesisHash: Uint8Array,
    private currentHead: ChainHead,
    private readonly logger: Logger,
  ) {}

  /**
   * Opens the chain in `modules.store`: writes the genesis block into an empty store; otherwise
   * checks that the stored genesis is this network's (CHAIN_GENESIS_MISMATCH) and loads the head.
   */
  static async open(opts: ChainOptions, modules: ChainModules): Promise<Chain> {
    const {chainspec} = modules;
    const {chainId} = chainspec.params;
    const store = new ChainStore(modules.store, {rules: chainspec, chainId}, opts);
    const state = modules.state ?? new StateDatabase(defaultStateOptions, {store: modules.store});
    const common = createChainCommon(chainspec);
    const genesis = await buildGenesisBlock(modules.genesis, chainspec, state, common);
    const head = await initializeStore(store, genesis, chainId);
    const importer = new BlockImporter({
      store,
      chainspec,
      executor: modules.executor ?? new BlockExecutor({}, {chainspec, state}),
      nowSeconds: modules.nowSeconds ?? (() => Math.floor(Date.now() / 1000)),
    });
    const genesisHash = genesis.block.hash();
    const logger = modules.logger ?? noopLogger;
    logger.info(
      {genesisHash: bytesToPrefixedHex(genesisHash), head: head.number, headHash: bytesToPrefixedHex(head.hash)},
      `${chainspec.params.name} (chain id ${chainId}): genesis ${bytesToPrefixedHex(genesisHash)}, head block ${head.number}`,
    );
    return new Chain(store, state, common, importer, genesisHash, head, logger);
  }

  /**
   * Imports a block (or its encoding) after every earlier call has finished. Invalid blocks come
   * back as INVALID_BLOCK with the typed error of the rule they break and leave the database as
   * it was; only faults of the node itself (I/O) throw.
   */
  importBlock(block: Block | Uint8Array): Promise<ImportResult> {
    return this.queue.run(async () => {
      const started = performance.now();
      const outcome = await this.importer.import(block, this.currentHead);
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
   * (see `setHead.ts`). Throws CHAIN_UNKNOWN_BLOCK for a block that is not stored.
   */
  setHead(hash: Uint8Array): Promise<ChainHead> {
    return this.queue.run(async () => {
      const moved = await setHead(this.store, hash, this.currentHead);
      if (moved) {
        this.currentHead = moved.head;
        this.events.emit("newHead", moved.event);
      }
      return this.currentHead;
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

  stateAfter(header: BlockHeader): Promise<StateReader> {
    return this.state.reader(header.stateRoot, this.common);
  }
}
