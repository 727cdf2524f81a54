/**
 * The test chain builder: valid blocks with real merged-mining proofs, built by the
 * execution package's block assembly on the builder's own state, so that tests import them into a
 * `Chain` through full validation. Blocks can extend any block built so far (forks) and include
 * uncles; `sealBlock` reseals altered values, so that a test reaches the rule it targets.
 */
import {buildGenesisHeader, type Chainspec, type GenesisParams} from "@xchain/chainspec";
import {type KeyValueStore, MemoryStore, WriteBatch} from "@xchain/db";
import {
  type AssembledBlock,
  assembledHeaderValues,
  BlockExecutor,
  createChainCommon,
  type ExecutionChainView,
  remascAncestry,
} from "@xchain/execution";
import {Block, type BlockHeader, type HeaderValues, type Transaction} from "@xchain/primitives";
import {buildGenesisState, defaultStateOptions, StateDatabase} from "@xchain/state";
import {bytesToHex} from "@xchain/utils";

import {sealHeader} from "./sealHeader.ts";

/**
 * The difficulty a header must carry given its parent: consensus' `calculateDifficulty` (test-utils sits
 * below consensus).
 */
export type DifficultyCalculator = (
  header: Pick<BlockHeader, "number" | "timestamp" | "uncleCount">,
  parent: BlockHeader,
) => bigint;

/** What a builder is made for. */
export interface ChainBuilderOptions {
  chainspec: Chainspec;
  genesis: GenesisParams;
  difficulty: DifficultyCalculator;
  /** Where the builder keeps its state; default an in-memory store. */
  store?: KeyValueStore;
  /** Coinbase of built blocks unless a block says otherwise; default 0x00…01. */
  coinbase?: Uint8Array;
}

/** One block to build; every field has a default. */
export interface BuildBlockOptions {
  /** The block to extend (a built block or its hash); default the last block built. */
  parent?: Block | Uint8Array;
  /** Candidates, in order; the REMASC transaction is appended. */
  transactions?: readonly Transaction[];
  uncles?: readonly BlockHeader[];
  /** Default: parent + the network's target interval. */
  timestamp?: number;
  coinbase?: Uint8Array;
  /** Default: the parent's. */
  gasLimit?: bigint;
  /** Default: the parent's. */
  minimumGasPrice?: bigint;
  extraData?: Uint8Array;
  /** Keep going when assembly skips a candidate (default: throw, naming the reasons). */
  allowSkipped?: boolean;
  /**
   * The state to build on, stored in the builder's store; default the parent's stateRoot (a chain's
   * dev-edited state, `Chain.stateRootAfter`, for a builder sharing the chain's store).
   */
  parentStateRoot?: Uint8Array;
}

/** A built block with what its assembly produced. */
export interface BuiltBlock {
  block: Block;
  assembled: AssembledBlock;
}

/** Builds chains of valid regtest-style blocks. */
export class ChainBuilder {
  private readonly blocks = new Map<string, Block>();
  /** The last block built (the default parent). */
  tip: Block;

  private constructor(
    private readonly options: ChainBuilderOptions,
    private readonly store: KeyValueStore,
    private readonly executor: BlockExecutor,
    /** The genesis block, identical to the one `Chain.open` writes for the same parameters. */
    readonly genesis: Block,
  ) {
    this.tip = genesis;
    this.blocks.set(bytesToHex(genesis.hash()), genesis);
  }

  /** A builder whose state holds the genesis allocation. */
  static async create(options: ChainBuilderOptions): Promise<ChainBuilder> {
    const {chainspec} = options;
    const store = options.store ?? new MemoryStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const {root, writes} = await buildGenesisState(
      state,
      options.genesis.alloc.map((account) => [account.address, account]),
      createChainCommon(chainspec),
    );
    await store.write(new WriteBatch().append(writes));
    const genesis = new Block(buildGenesisHeader(options.genesis.header, root, chainspec), [], []);
    return new ChainBuilder(options, store, new BlockExecutor({}, {chainspec, state}), genesis);
  }

  /** A built block by hash. */
  block(hash: Uint8Array): Block | undefined {
    return this.blocks.get(bytesToHex(hash));
  }

  /** The block at `blockNumber` on the chain ending at `tip` (default the builder's tip). */
  blockAt(blockNumber: number, tip: Block = this.tip): Block | undefined {
    let block: Block | undefined = tip;
    while (block && block.header.number > blockNumber) block = this.block(block.header.parentHash);
    return block?.header.number === blockNumber ? block : undefined;
  }

  /**
   * Drops the recorded blocks numbered below `blockNumber`, so that a long chain's memory stays
   * bounded. They can no longer be parents, and `blockAt` no longer finds them: keep at least the
   * ancestors a build reads (256 for BLOCKHASH, 449 for fork-detection data, REMASC's span).
   */
  forgetBlocksBelow(blockNumber: number): void {
    // The map keeps insertion order, and a block is built after its parent: the oldest come first.
    for (const [key, block] of this.blocks) {
      if (block.header.number >= blockNumber) break;
      if (block !== this.tip) this.blocks.delete(key);
    }
  }

  /** Builds, seals and records a valid block; it becomes the tip. */
  async buildBlock(options: BuildBlockOptions = {}): Promise<Block> {
    return (await this.build(options)).block;
  }

  /** `buildBlock` that also returns the assembly result (receipts, outcomes, skipped candidates). */
  async build(options: BuildBlockOptions = {}): Promise<BuiltBlock> {
    const parent = this.parentOf(options.parent);
    const p = parent.header;
    const number = p.number + 1;
    const uncles = options.uncles ?? [];
    const timestamp = options.timestamp ?? p.timestamp + this.options.chainspec.params.durationLimitSeconds;
    const context = {
      number,
      timestamp,
      coinbase: options.coinbase ?? this.options.coinbase ?? DEFAULT_COINBASE,
      difficulty: this.options.difficulty({number, timestamp, uncleCount: uncles.length}, p),
      gasLimit: options.gasLimit ?? p.gasLimit,
      minimumGasPrice: options.minimumGasPrice ?? p.minimumGasPrice,
    };
    const assembled = await this.executor.assembleBlock({
      block: context,
      candidates: options.transactions ?? [],
      parentStateRoot: options.parentStateRoot ?? p.stateRoot,
      chain: await this.chainView(parent, number),
    });
    if (assembled.skipped.length > 0 && !options.allowSkipped) {
      throw new Error(`assembly skipped: ${assembled.skipped.map((s) => s.reason).join("; ")}`);
    }
    await this.store.write(new WriteBatch().append(assembled.result.stateWrites));
    const {result} = assembled;
    const block = this.sealBlock(
      assembledHeaderValues(
        context,
        result,
        {parentHash: p.hash(), uncles, extraData: options.extraData ?? new Uint8Array(0)},
        this.options.chainspec,
      ),
      assembled.transactions,
      uncles,
    );
    this.blocks.set(bytesToHex(block.hash()), block);
    this.tip = block;
    return {block, assembled};
  }

  /** Builds `count` blocks in a row on `options.parent` (default the tip). */
  async buildChain(count: number, options: BuildBlockOptions = {}): Promise<Block[]> {
    const built: Block[] = [];
    for (let i = 0; i < count; i++) {
      built.push(await this.buildBlock(i === 0 ? options : {...options, parent: undefined}));
    }
    return built;
  }

  /**
   * Seals a block from header values (merged-mining fields ignored) and a body, without executing
   * or recording it: for blocks that break a rule on purpose. The parent must be a built block.
   */
  sealBlock(values: HeaderValues, transactions: readonly Transaction[], uncles: readonly BlockHeader[] = []): Block {
    const parent = this.parentOf(values.parentHash);
    const header = sealHeader(values, (n) => this.blockAt(n, parent)?.header, this.options.chainspec);
    return new Block(header, transactions, uncles);
  }

  private parentOf(parent: Block | Uint8Array | undefined): Block {
    if (parent === undefined) return this.tip;
    const block = this.block(parent instanceof Block ? parent.hash() : parent);
    if (!block) throw new Error("the parent was not built by this builder");
    return block;
  }

  private async chainView(parent: Block, number: number): Promise<ExecutionChainView> {
    const remasc = await remascAncestry(this.options.chainspec, number, undefined, async (n) => {
      const block = this.blockAt(n, parent);
      return block && {header: block.header, uncles: block.uncles};
    });
    return {
      blockHash: async (n) => (n >= number - 256 ? this.blockAt(n, parent)?.hash() : undefined),
      remasc,
      headers: {
        headerAt: async (n) => (n < number ? this.blockAt(n, parent)?.header : undefined),
        uncles: async (hash) => this.block(hash)?.uncles,
        totalDifficulty: async (hash) => this.totalDifficulty(hash),
      },
    };
  }

  /** The total difficulty up to the built block `hash` (docs/protocol/consensus.md §2), undefined for another. */
  private totalDifficulty(hash: Uint8Array): bigint | undefined {
    let block = this.block(hash);
    let total = 0n;
    while (block) {
      // Its own difficulty and its uncles' (rskj's cumulative difficulty).
      total += block.uncles.reduce((sum, uncle) => sum + uncle.difficulty, block.header.difficulty);
      if (block.header.number === 0) return total;
      block = this.block(block.header.parentHash);
    }
    return undefined;
  }
}

const DEFAULT_COINBASE = Uint8Array.from({length: 20}, (_, i) => (i === 19 ? 1 : 0));

/** The typed values of a header (to alter some and reseal with `sealBlock`). */
export function headerValues(header: BlockHeader): HeaderValues {
  return {
    parentHash: header.parentHash,
    unclesHash: header.unclesHash,
    coinbase: header.coinbase,
    stateRoot: header.stateRoot,
    txTrieRoot: header.txTrieRoot,
    receiptTrieRoot: header.receiptTrieRoot,
    logsBloom: header.logsBloom,
    difficulty: header.difficulty,
    number: header.number,
    gasLimit: header.gasLimit,
    gasUsed: header.gasUsed,
    timestamp: header.timestamp,
    extraData: header.extraData,
    paidFees: header.paidFees,
    minimumGasPrice: header.minimumGasPrice,
    uncleCount: header.uncleCount,
    ummRoot: header.ummRoot,
  };
}
