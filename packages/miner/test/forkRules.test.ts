/**
 * The miner on a forked chain (docs/forking.md §3.1, §3.2): above a real mainnet header (block
 * 4,480,000: difficulty ~10^20, minimum gas price ~6·10^7) over a real local state, the real miner
 * assembles and imports F+1…, with BLOCKHASH at or below F answering mainnet's own hashes and REMASC
 * paying no matured block at or below F, by the same rules as import (a second chain re-executes the
 * mined blocks); the dev controls' reset returns to R₀ and the re-anchor moves to another fork block.
 */
import {
  buildForkAnchor,
  Chain,
  ChainErrorCode,
  type ChainFork,
  defaultChainOptions,
  ImportResultKind,
  type NewHeadEvent,
  type StateEditedEvent,
} from "@xchain/chain";
import {Chainspec, getChainspec, regtestGenesis} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {type KeyValueStore, MemoryStore} from "@xchain/db";
import {BlockExecutor, type ForkAncestry, REMASC_STORAGE_KEYS} from "@xchain/execution";
import {type Block, BlockHeader, REMASC_ADDRESS, type Transaction} from "@xchain/primitives";
import {defaultStateOptions, forkBaseId, readerBase, type StateBase, StateDatabase} from "@xchain/state";
import {readMainnetHeaderLines} from "@xchain/test-utils";
import {bytesToBigInt, bytesToHex, hexToBytes, noopLogger} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {defaultMinerOptions, Miner, MinerErrorCode} from "../src/index.ts";
import {cows, openMiner, regtest, TestPool, transfer} from "./helpers.ts";

const mainnet = getChainspec("mainnet");
/** Mainnet headers 4,479,841 to 4,480,900, decoded under mainnet's encoding heights. */
const upstream = readMainnetHeaderLines().map((line) => BlockHeader.decode(hexToBytes(line), mainnet));
const FIRST = upstream[0]!.number;
/** The fork block: mainnet's block 4,480,000. */
const F = 4_480_000;
/** A second fork block, for the re-anchor. */
const F2 = F - 100;

/**
 * Regtest's rules without RSKIP-110, whose fork-detection data needs 449 stored ancestors with
 * Bitcoin headers (the fork chainspec turns it off too). Block F+1 is at the minimum difficulty by
 * regtest's 600-second-gap reset: the mainnet anchor is years older than the miner's clock.
 */
const rules = new Chainspec({...regtest.params, activation: {...regtest.params.activation, RSKIP110: -1}});

/**
 * Runtime: stores BLOCKHASH(n) at slot n and returns it, n the first calldata word.
 * PUSH1 0 CALLDATALOAD DUP1 BLOCKHASH DUP1 PUSH1 0 MSTORE SWAP1 SSTORE PUSH1 32 PUSH1 0 RETURN
 */
const BLOCKHASH_INIT = hexToBytes("0x6010600c60003960106000f3600035804080600052905560206000f3");

function word(n: number): Uint8Array {
  return hexToBytes(`0x${BigInt(n).toString(16).padStart(64, "0")}`);
}

/** Mainnet's hashes at and below `forkNumber`, from the real headers (an upstream's `blockHash`). */
function mainnetAncestry(forkNumber: number): ForkAncestry {
  return {
    number: forkNumber,
    hashAt: async (n) => (n <= forkNumber ? upstream[n - FIRST]?.hash() : undefined),
  };
}

function mainnetHash(n: number): Uint8Array {
  return upstream[n - FIRST]!.hash();
}

/** Regtest's genesis state (the cow accounts funded), the base of every fork here. */
async function localState() {
  const source = await Chain.open(defaultChainOptions, {
    store: new MemoryStore(),
    chainspec: regtest,
    genesis: regtestGenesis,
  });
  return source.stateAt(source.genesisHash);
}

/** A base holder whose base `useFork` swaps (a re-fork swaps the base under every `StateDatabase`). */
class Bases {
  private base: StateBase | undefined;
  constructor(private readonly reader: Awaited<ReturnType<typeof localState>>) {}
  current = (): StateBase | undefined => this.base;
  useFork(forkNumber: number): StateBase {
    this.base = readerBase(this.reader, forkBaseId(30n, mainnetHash(forkNumber)));
    return this.base;
  }
}

/** A fork of mainnet's block `forkNumber` opened on `store` (the base's holder already names it). */
async function forkOf(forkNumber: number, bases: Bases, store: KeyValueStore) {
  const state = new StateDatabase(defaultStateOptions, {store, base: bases});
  const base = bases.useFork(forkNumber);
  const header = BlockHeader.decode(upstream[forkNumber - FIRST]!.encode(), rules);
  const anchor = await buildForkAnchor({upstreamChainId: 30, header, base}, state);
  const fork: ChainFork = {anchor, ancestry: mainnetAncestry(forkNumber)};
  const chain = await Chain.openFork(defaultChainOptions, {store, chainspec: rules, state, fork});
  return {chain, state, fork};
}

const miners: Miner[] = [];
afterEach(async () => {
  for (const miner of miners.splice(0)) await miner.close();
});

/** The real miner on a fork of block F, mining on demand; the chain's events as they came. */
async function minedFork() {
  const bases = new Bases(await localState());
  const store = new MemoryStore();
  const {chain, state, fork} = await forkOf(F, bases, store);
  const pool = new TestPool(chain);
  const miner = new Miner(
    {...defaultMinerOptions(rules), enabled: false},
    {
      chain,
      txpool: pool,
      // Assembly's own state database on the same store and base, as the node's.
      assembler: new BlockExecutor(
        {},
        {chainspec: rules, state: new StateDatabase(defaultStateOptions, {store, base: bases})},
      ),
      chainspec: rules,
      pendingState: state,
      probeState: state,
      stateDumps: state,
      logger: noopLogger,
    },
  );
  miners.push(miner);
  const heads: NewHeadEvent[] = [];
  const edits: StateEditedEvent[] = [];
  chain.events.on("newHead", (event) => heads.push(event));
  chain.events.on("stateEdited", (event) => edits.push(event));
  /** Mines one block of `transactions` (all must be included) and returns it. */
  const mine = async (...transactions: Transaction[]): Promise<Block> => {
    pool.add(...transactions);
    const {importResult, blockHash} = await miner.mineBlock();
    expect(importResult).toBe(ImportResultKind.IMPORTED_BEST);
    const block = (await chain.getBlock(blockHash))!;
    expect(block.transactions).toHaveLength(transactions.length + 1);
    return block;
  };
  return {bases, store, chain, state, fork, pool, miner, heads, edits, mine};
}

type MinedFork = Awaited<ReturnType<typeof minedFork>>;

/**
 * cows[0]'s transaction to `to` (a creation when undefined) at twice the head's minimum gas price
 * (mainnet's, on the first blocks).
 */
function send(fork: MinedFork, nonce: number, to: Uint8Array | undefined, data: Uint8Array = new Uint8Array(0)) {
  const gasPrice = fork.chain.head().header.minimumGasPrice * 2n;
  return transfer(cows[0]!, {nonce: BigInt(nonce), gasPrice, value: 0n, gasLimit: 200_000n, to, data});
}

/** F+1 deploys the BLOCKHASH contract; F+2 stores BLOCKHASH(F) and BLOCKHASH(F − 5) with it. */
async function mineBlockHashCalls(fork: MinedFork, firstNonce: number) {
  const first = await fork.mine(send(fork, firstNonce, undefined, BLOCKHASH_INIT));
  const contract = fork.heads.at(-1)?.headOutcomes?.[0]?.contractAddress;
  if (!contract) throw new Error("the BLOCKHASH contract was not deployed");
  const forkNumber = fork.chain.fork!.anchor.number;
  const second = await fork.mine(
    send(fork, firstNonce + 1, contract, word(forkNumber)),
    send(fork, firstNonce + 2, contract, word(forkNumber - 5)),
  );
  return {first, second, contract};
}

describe("the miner on a fork of a mainnet block", () => {
  it("assembles F+1 and F+2 at regtest's rules, BLOCKHASH at or below F answering mainnet's hashes as import does", async () => {
    const fork = await minedFork();
    const {first, second, contract} = await mineBlockHashCalls(fork, 0);
    const anchor = upstream[F - FIRST]!;
    expect(anchor.difficulty).toBeGreaterThan(10n ** 18n);
    expect(anchor.minimumGasPrice).toBeGreaterThan(0n);
    expect(first.header.parentHash).toEqual(anchor.hash());
    expect(first.header.difficulty).toBe(rules.minimumDifficulty(F + 1));
    expect(second.header.difficulty).toBe(calculateDifficulty(second.header, first.header, rules));
    // Assembly: the mined block's storage holds mainnet's hashes (the slot is the block number).
    const state = await fork.chain.stateAt(second.hash());
    expect(bytesToHex(await state.getStorage(contract, word(F)))).toBe(bytesToHex(mainnetHash(F)));
    expect(bytesToHex(await state.getStorage(contract, word(F - 5)))).toBe(bytesToHex(mainnetHash(F - 5)));

    // Import: a second chain on the same fork executes the blocks again and gets the same roots.
    const importer = await forkOf(F, fork.bases, new MemoryStore());
    for (const block of [first, second]) {
      const result = await importer.chain.importBlock(block.encode());
      expect(result.kind, "error" in result ? result.error.message : "").toBe(ImportResultKind.IMPORTED_BEST);
    }
    const imported = await importer.chain.stateAt(second.hash());
    expect(await imported.getStorage(contract, word(F - 5))).toEqual(mainnetHash(F - 5));
  });

  it("processes no matured block at or below F with REMASC, and the fork's own blocks by rskj's rule", async () => {
    const fork = await minedFork();
    const paying = await fork.mine(send(fork, 0, cows[1]!.address));
    expect(paying.header.paidFees).toBeGreaterThan(0n);
    const maturity = rules.params.remascMaturity;
    const balanceAt = async (block: Block, address: Uint8Array) =>
      (await (await fork.chain.stateAt(block.hash())).getAccount(address))?.balance ?? 0n;
    const rewardAt = async (block: Block) =>
      bytesToBigInt(
        await (await fork.chain.stateAt(block.hash())).getStorage(REMASC_ADDRESS, REMASC_STORAGE_KEYS.rewardBalance),
      );
    let block = paying;
    while (block.header.number < F + maturity) block = await fork.mine();
    // Block F + maturity matures the anchor: mainnet settled its fees; REMASC holds none of them.
    const anchorCoinbase = upstream[F - FIRST]!.coinbase;
    expect(await balanceAt(block, anchorCoinbase)).toBe(0n);
    const pool = await rewardAt(block);
    const before = await balanceAt(block, paying.header.coinbase);
    block = await fork.mine();
    // Block F+1's fees join the pool; a fifth of it is below mainnet's minimumGasPrice × 200,000, so
    // RSKIP-85 defers the payout, as rskj does: nothing is paid and the pool keeps them.
    expect(block.header.minimumGasPrice * 200_000n).toBeGreaterThan((pool + paying.header.paidFees) / 5n);
    expect(await balanceAt(block, paying.header.coinbase)).toBe(before);
    expect(await rewardAt(block)).toBe(pool + paying.header.paidFees);
  });

  it("resets to the anchor and R₀, dropping an edit of the anchor's state", async () => {
    const fork = await minedFork();
    await fork.mine(send(fork, 0, cows[1]!.address));
    const controls = fork.miner.devControls().chain;
    const initial = fork.fork.anchor.initialState.root;
    expect(fork.chain.initialStateRoot()).toEqual(initial);
    await controls.reset();
    expect(fork.chain.head().number).toBe(F);
    expect(fork.chain.stateRootAfter(fork.chain.head().header)).toEqual(initial);
    await fork.miner.devControls().state.setBalance(cows[5]!.address, 7n);
    expect(fork.chain.stateRootAfter(fork.chain.head().header)).not.toEqual(initial);
    await controls.reset();
    expect(fork.chain.stateRootAfter(fork.chain.head().header)).toEqual(initial);
    // Mining goes on from R₀: cows[0]'s nonce is the base's again.
    const again = await fork.mine(send(fork, 0, cows[1]!.address));
    expect(again.header.number).toBe(F + 1);
  });

  it("re-anchors on another fork block: the old local blocks removed, the pool emptied, BLOCKHASH from the new ancestry", async () => {
    const fork = await minedFork();
    const {second} = await mineBlockHashCalls(fork, 0);
    const pending = send(fork, 3, cows[1]!.address);
    fork.pool.add(pending);
    const controls = fork.miner.devControls().chain;
    const snapshot = controls.snapshot();
    fork.heads.length = 0;

    // The new base first, then the anchor built over it (as anvil_reset with forking does).
    const base = fork.bases.useFork(F2);
    const header = BlockHeader.decode(upstream[F2 - FIRST]!.encode(), rules);
    const anchor = await buildForkAnchor({upstreamChainId: 30, header, base}, fork.state);
    await controls.reanchor(anchor, mainnetAncestry(F2));

    expect(fork.chain.fork?.anchor.number).toBe(F2);
    expect(fork.chain.genesisHash).toEqual(mainnetHash(F2));
    expect(fork.chain.head().number).toBe(F2);
    expect(fork.chain.initialStateRoot()).toEqual(anchor.initialState.root);
    expect(fork.heads).toHaveLength(1);
    expect(fork.heads[0]?.removed.map((b) => b.header.number)).toEqual([F + 2, F + 1]);
    expect(fork.edits.at(-1)?.stateRoot).toEqual(anchor.initialState.root);
    expect(fork.pool.size).toBe(0);
    expect(await controls.revert(snapshot)).toBe(false);
    expect(await fork.chain.getHeaderByNumber(F)).toBeUndefined();
    expect(await fork.chain.getBlockByNumber(second.header.number)).toBeUndefined();

    // The miner builds on the new anchor and reads the new ancestry.
    const mined = await mineBlockHashCalls(fork, 0);
    expect(mined.first.header.parentHash).toEqual(mainnetHash(F2));
    const state = await fork.chain.stateAt(mined.second.hash());
    expect(await state.getStorage(mined.contract, word(F2))).toEqual(mainnetHash(F2));
    expect(await state.getStorage(mined.contract, word(F2 - 5))).toEqual(mainnetHash(F2 - 5));
  });

  it("refuses a re-anchor of a chain from a genesis, changing nothing", async () => {
    const fork = await minedFork();
    const {miner, chain} = await openMiner();
    expect(chain.fork).toBeUndefined();
    const controls = miner.devControls().chain;
    const snapshot = controls.snapshot();
    const refused = controls.reanchor(fork.fork.anchor, fork.fork.ancestry);
    await expect(refused).rejects.toMatchObject({code: MinerErrorCode.NOT_ALLOWED});
    await expect(chain.reanchor(fork.fork.anchor, fork.fork.ancestry)).rejects.toMatchObject({
      code: ChainErrorCode.FORK_MISMATCH,
    });
    expect(chain.head().number).toBe(0);
    expect(await controls.revert(snapshot)).toBe(true);
  });
});
