/**
 * A minimal chain over `BlockExecutor` and the real `StateDatabase` (on an in-memory store) for
 * tests: blocks by number, the blocks REMASC reads, BLOCKHASH; each block's state writes are persisted.
 */
import type {Common} from "@ethereumjs/common";
import type {Chainspec} from "@xchain/chainspec";
import {MemoryStore, WriteBatch} from "@xchain/db";
import {createRemascTransaction, type Transaction} from "@xchain/primitives";
import {type AccountState, buildGenesisState, defaultStateOptions, StateDatabase} from "@xchain/state";
import {NO_CHAIN_HEADERS} from "@xchain/test-utils";
import {keccak256, utf8ToBytes} from "@xchain/utils";
import {
  type AssembledBlock,
  type BlockExecutionResult,
  BlockExecutor,
  type ExecutionBlockContext,
  type ExecutionChainView,
  remascAncestry,
} from "../../src/index.ts";

/** A genesis allocation for tests. */
export interface TestAccount {
  address: Uint8Array;
  balance: bigint;
  code?: Uint8Array;
}

/** A block the test chain has connected. */
export interface TestBlock {
  number: number;
  hash: Uint8Array;
  coinbase: Uint8Array;
  stateRoot: Uint8Array;
  paidFees: bigint;
  result?: BlockExecutionResult;
}

/** Overrides of the next block's context. */
export type BlockOptions = Partial<Omit<ExecutionBlockContext, "number">>;

export const DEFAULT_COINBASE = new Uint8Array(20).fill(0xcb);

export class TestChain {
  readonly executor: BlockExecutor;
  readonly common: Common;
  readonly blocks: TestBlock[] = [];

  private constructor(
    readonly chainspec: Chainspec,
    readonly store = new MemoryStore(),
    readonly source = new StateDatabase(defaultStateOptions, {store}),
  ) {
    this.executor = new BlockExecutor({}, {chainspec, state: this.source});
    this.common = this.executor.commonAt(0);
  }

  static async create(chainspec: Chainspec, accounts: TestAccount[]): Promise<TestChain> {
    const chain = new TestChain(chainspec);
    const alloc = accounts.map((a): [Uint8Array, {balance: bigint; code?: Uint8Array}] => [
      a.address,
      a.code ? {balance: a.balance, code: a.code} : {balance: a.balance},
    ]);
    const genesis = await buildGenesisState(chain.source, alloc, chain.common);
    await chain.store.write(new WriteBatch().append(genesis.writes));
    const stateRoot = genesis.root;
    chain.blocks.push({
      number: 0,
      hash: keccak256(utf8ToBytes("block 0")),
      coinbase: new Uint8Array(20),
      stateRoot,
      paidFees: 0n,
    });
    return chain;
  }

  /**
   * A chain with the blocks of `from` whose head's state is `headRoot` of `source` instead (a fork
   * of `from`'s head state); blocks executed on it leave `from` alone.
   */
  static branchOf(from: TestChain, store: MemoryStore, source: StateDatabase, headRoot: Uint8Array): TestChain {
    const chain = new TestChain(from.chainspec, store, source);
    chain.blocks.push(...from.blocks.slice(0, -1), {...from.head, stateRoot: headRoot});
    return chain;
  }

  get head(): TestBlock {
    return this.blocks[this.blocks.length - 1] as TestBlock;
  }

  /** The context of the block after `parent` (the head by default). */
  context(options: BlockOptions = {}, parent = this.head): ExecutionBlockContext {
    return {
      number: parent.number + 1,
      timestamp: 1_700_000_000 + parent.number + 1,
      coinbase: DEFAULT_COINBASE,
      difficulty: 131_072n,
      gasLimit: 6_800_000n,
      minimumGasPrice: 0n,
      ...options,
    };
  }

  /** What a call in the block after `parent` sees of the chain (a call runs no REMASC transaction). */
  view(parent = this.head): ExecutionChainView {
    const ancestors = this.blocks.slice(0, parent.number + 1);
    return {blockHash: async (n) => ancestors[n]?.hash, remasc: undefined, headers: NO_CHAIN_HEADERS};
  }

  /** What the block after `parent` sees of the chain: BLOCKHASH and the blocks its REMASC reads (no uncles here). */
  async blockView(parent = this.head): Promise<ExecutionChainView> {
    const ancestors = this.blocks.slice(0, parent.number + 1);
    const remasc = await remascAncestry(this.chainspec, parent.number + 1, undefined, async (n) => {
      const block = ancestors[n];
      return block && {header: {...block, uncleCount: 0, hash: () => block.hash}, uncles: []};
    });
    return {...this.view(parent), remasc};
  }

  /** Executes `transactions` (the REMASC transaction is appended) as the next block and connects it. */
  async execute(transactions: Transaction[], options: BlockOptions = {}, parent = this.head): Promise<TestBlock> {
    const block = this.context(options, parent);
    const result = await this.executor.execute({
      block,
      transactions: [...transactions, createRemascTransaction(block.number)],
      parentStateRoot: parent.stateRoot,
      chain: await this.blockView(parent),
    });
    return await this.connect(block, result, parent);
  }

  /** Assembles the next block from `candidates` and connects it. */
  async assemble(candidates: Transaction[], options: BlockOptions = {}): Promise<AssembledBlock> {
    const block = this.context(options);
    const assembled = await this.executor.assembleBlock({
      block,
      candidates,
      parentStateRoot: this.head.stateRoot,
      chain: await this.blockView(),
    });
    await this.connect(block, assembled.result, this.head);
    return assembled;
  }

  async account(address: Uint8Array, root = this.head.stateRoot): Promise<AccountState | undefined> {
    return (await this.source.reader(root, this.common)).getAccount(address);
  }

  /** A storage slot's value as the state stores it (a word without leading zeros; empty when absent). */
  async storage(address: Uint8Array, slot: Uint8Array, root = this.head.stateRoot): Promise<Uint8Array> {
    const value = await (await this.source.reader(root, this.common)).getStorage(address, slot);
    const start = value.findIndex((b) => b !== 0);
    return start === -1 ? new Uint8Array(0) : value.subarray(start);
  }

  private async connect(
    block: ExecutionBlockContext,
    result: BlockExecutionResult,
    parent: TestBlock,
  ): Promise<TestBlock> {
    await this.store.write(new WriteBatch().append(result.stateWrites));
    const connected: TestBlock = {
      number: block.number,
      hash: keccak256(utf8ToBytes(`block ${block.number} ${this.blocks.length}`)),
      coinbase: block.coinbase,
      stateRoot: result.stateRoot,
      paidFees: result.paidFees,
      result,
    };
    this.blocks.length = parent.number + 1;
    this.blocks.push(connected);
    return connected;
  }
}
