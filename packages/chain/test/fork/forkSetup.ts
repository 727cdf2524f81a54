/**
 * A forked chain over a local source chain: the source's state at block F is the base
 * (`readerBase`), its canonical hashes the ancestry (`chainAncestry`), so every answer of the fork
 * can be checked against the source's own.
 */
import {calculateDifficulty} from "@xchain/consensus";
import type {KeyValueStore} from "@xchain/db";
import {assembledHeaderValues, BlockExecutor, type ForkAncestry, remascAncestry} from "@xchain/execution";
import {Block, type BlockHeader, type Transaction} from "@xchain/primitives";
import {defaultStateOptions, forkBaseId, readerBase, type StateBase, StateDatabase} from "@xchain/state";
import {type ChainBuilder, NO_CHAIN_HEADERS, sealHeader} from "@xchain/test-utils";
import {hexToBytes} from "@xchain/utils";
import {expect} from "vitest";
import {
  buildForkAnchor,
  Chain,
  chainAncestry,
  defaultChainOptions,
  type ForkAnchor,
  ImportResultKind,
} from "../../src/index.ts";
import {cows, newBuilder, openChain, regtest, signTx, type TestChain} from "../helpers.ts";

/** The fork block's number. */
export const F = 6;

/**
 * Runtime: stores BLOCKHASH(n) at slot n and returns it, n the first calldata word.
 * PUSH1 0 CALLDATALOAD DUP1 BLOCKHASH DUP1 PUSH1 0 MSTORE SWAP1 SSTORE PUSH1 32 PUSH1 0 RETURN
 */
const BLOCKHASH_RUNTIME = "600035804080600052905560206000f3";
/** Init code: CODECOPY the 16-byte runtime (at offset 12) to memory and RETURN it. */
const BLOCKHASH_INIT = hexToBytes(`0x6010600c60003960106000f3${BLOCKHASH_RUNTIME}`);

/** The coinbase of every block built here, on both chains. */
export const COINBASE = hexToBytes("0x00000000000000000000000000000000000000c0");

/** A word: the calldata asking for BLOCKHASH(n). */
export function word(n: number | bigint): Uint8Array {
  return hexToBytes(`0x${BigInt(n).toString(16).padStart(64, "0")}`);
}

/** The source chain: F blocks, with the BLOCKHASH contract deployed and used below F. */
export interface SourceChain extends TestChain {
  builder: ChainBuilder;
  blocks: Block[];
  /** The BLOCKHASH contract's address. */
  contract: Uint8Array;
}

/**
 * Builds and imports F blocks: block 1 deploys the contract (cows[0], nonce 0) and sends value to
 * cows[2]; block 3 stores BLOCKHASH(2) in the contract's storage; block F pays fees (cows[3] sends
 * to cows[2]); the others are empty.
 */
export async function buildSource(): Promise<SourceChain> {
  const source = await openChain();
  const builder = await newBuilder();
  const blocks: Block[] = [];
  const deploy = signTx(cows[0]!, {nonce: 0n, gasLimit: 200_000n, gasPrice: 1n, data: BLOCKHASH_INIT});
  const send = signTx(cows[1]!, {nonce: 0n, to: cows[2]!.address, value: 5_000n, gasPrice: 1n});
  const first = await builder.build({transactions: [deploy, send], coinbase: COINBASE});
  const contract = first.assembled.result.outcomes[0]?.contractAddress;
  if (!contract) throw new Error("the BLOCKHASH contract was not deployed");
  blocks.push(first.block);
  for (let n = 2; n <= F; n++) {
    const transactions =
      n === 3
        ? [signTx(cows[0]!, {nonce: 1n, to: contract, gasLimit: 100_000n, gasPrice: 1n, data: word(2)})]
        : n === F
          ? [signTx(cows[3]!, {nonce: 0n, to: cows[2]!.address, value: 1n, gasPrice: 1n})]
          : [];
    blocks.push(await builder.buildBlock({transactions, coinbase: COINBASE}));
  }
  for (const block of blocks) await source.chain.importBlock(block.encode());
  expect(source.chain.head().number).toBe(F);
  return {...source, builder, blocks, contract};
}

/** A forked chain opened on a store, with what it was opened with. */
export interface ForkedChain {
  chain: Chain;
  store: KeyValueStore;
  state: StateDatabase;
  /** The base `state` reads under; a re-anchor swaps it (`forkAt`). */
  holder: {base: StateBase; current(): StateBase};
  anchor: ForkAnchor;
  ancestry: ForkAncestry;
  /** Assembles blocks on the fork (the miner's part), on the same state. */
  executor: BlockExecutor;
}

/** The source's state at its block `at` (default F), as a fork's base. */
export async function sourceBase(source: SourceChain, at = F): Promise<StateBase> {
  const anchorHash = source.blocks[at - 1]!.hash();
  const reader = await source.chain.stateAt(anchorHash);
  return readerBase(reader, forkBaseId(BigInt(regtest.params.chainId), anchorHash));
}

/**
 * The anchor and ancestry of a fork of the source's block `at`, built over `state` after its base
 * holder was made to hold that block's state (as a re-fork swaps the base first).
 */
export async function forkAt(
  source: SourceChain,
  state: StateDatabase,
  holder: ForkedChain["holder"],
  at: number,
): Promise<{anchor: ForkAnchor; ancestry: ForkAncestry}> {
  holder.base = await sourceBase(source, at);
  const header = source.blocks[at - 1]!.header;
  const anchor = await buildForkAnchor({upstreamChainId: regtest.params.chainId, header, base: holder.base}, state);
  return {anchor, ancestry: chainAncestry(source.chain, at)};
}

/** Opens (or reopens) a fork of the source's block `at` (default F) on `store`. */
export async function openFork(source: SourceChain, store: KeyValueStore, at = F): Promise<ForkedChain> {
  const holder = {
    base: await sourceBase(source, at),
    current(): StateBase {
      return this.base;
    },
  };
  const state = new StateDatabase(defaultStateOptions, {store, base: holder});
  const {anchor, ancestry} = await forkAt(source, state, holder, at);
  const chain = await Chain.openFork(defaultChainOptions, {
    store,
    chainspec: regtest,
    state,
    fork: {anchor, ancestry},
  });
  const executor = new BlockExecutor({}, {chainspec: regtest, state});
  return {chain, store, state, holder, anchor, ancestry, executor};
}

/**
 * Assembles a block of `transactions` (and `uncles`) on the fork's head (regtest rules: the next timestamp,
 * the difficulty of consensus), seals it and imports it (import executes it again: no local execution).
 */
export async function mineOnFork(
  fork: ForkedChain,
  transactions: readonly Transaction[],
  uncles: readonly BlockHeader[] = [],
): Promise<Block> {
  const parent = fork.chain.head().header;
  const number = parent.number + 1;
  const timestamp = parent.timestamp + regtest.params.durationLimitSeconds;
  const context = {
    number,
    timestamp,
    coinbase: COINBASE,
    difficulty: calculateDifficulty({number, timestamp, uncleCount: uncles.length}, parent, regtest),
    gasLimit: parent.gasLimit,
    minimumGasPrice: parent.minimumGasPrice,
  };
  // The miner's rule, as import's: REMASC processes no block at or below the fork block.
  const remasc = await remascAncestry(regtest, number, fork.chain.fork?.anchor.number, async (n) => {
    const block = await fork.chain.getBlockByNumber(n);
    return block && {header: block.header, uncles: block.uncles};
  });
  const assembled = await fork.executor.assembleBlock({
    block: context,
    candidates: transactions,
    parentStateRoot: fork.chain.stateRootAfter(parent),
    chain: {
      blockHash: async (n) => (await fork.chain.getHeaderByNumber(n))?.hash(),
      remasc,
      forkAncestry: fork.chain.fork?.ancestry,
      headers: NO_CHAIN_HEADERS,
    },
  });
  expect(assembled.skipped.map((s) => s.reason)).toEqual([]);
  const values = assembledHeaderValues(
    context,
    assembled.result,
    {parentHash: parent.hash(), uncles, extraData: new Uint8Array(0)},
    regtest,
  );
  // Fork-detection data (RSKIP-110) is not compared below block 450: no ancestor is asked for.
  const block = new Block(
    sealHeader(values, () => undefined, regtest),
    assembled.transactions,
    [...uncles],
  );
  const result = await fork.chain.importBlock(block.encode());
  expect(result.kind, "error" in result ? result.error.message : "").toBe(ImportResultKind.IMPORTED_BEST);
  return block;
}
