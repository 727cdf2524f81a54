/**
 * The forked chain over a local source chain: the anchor store, blocks on the fork against the
 * source's own next block, BLOCKHASH at and below the fork block, restart, refusals, one batch.
 */
import {regtestGenesis} from "@xchain/chainspec";
import {MemoryStore, type WriteBatch} from "@xchain/db";
import {REMASC_STORAGE_KEYS} from "@xchain/execution";
import {REMASC_ADDRESS, REMASC_SENDER} from "@xchain/primitives";
import type {StateReader} from "@xchain/state";
import {NO_CHAIN_HEADERS} from "@xchain/test-utils";
import {bytesToBigInt, bytesToHex, hexToBytes} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {Chain, ChainErrorCode, defaultChainOptions, readForkAnchor} from "../../src/index.ts";
import {cleanup, cows, openTempStore, regtest, signTx, snapshot} from "../helpers.ts";
import {buildSource, COINBASE, F, mineOnFork, openFork, type SourceChain, word} from "./forkSetup.ts";

afterEach(cleanup);

const RECIPIENT = hexToBytes("0x00000000000000000000000000000000000000aa");

/** The transactions of the first block on the fork (and of the source's own block F+1). */
function firstBlockTransactions(source: SourceChain) {
  return [
    signTx(cows[1]!, {nonce: 1n, to: RECIPIENT, value: 1_234n, gasPrice: 1n}),
    signTx(cows[2]!, {nonce: 0n, to: cows[0]!.address, value: 77n, gasPrice: 1n}),
    signTx(cows[0]!, {nonce: 2n, to: source.contract, gasLimit: 100_000n, gasPrice: 1n, data: word(F - 2)}),
    signTx(cows[0]!, {nonce: 3n, to: source.contract, gasLimit: 100_000n, gasPrice: 1n, data: word(F)}),
  ];
}

async function accountsOf(state: StateReader, source: SourceChain) {
  const addresses = [...cows.slice(0, 4).map((c) => c.address), RECIPIENT, source.contract, COINBASE];
  const accounts = [REMASC_ADDRESS, REMASC_SENDER, ...addresses].map(async (address) => {
    const account = await state.getAccount(address);
    return [bytesToHex(address), account && {nonce: account.nonce, balance: account.balance}];
  });
  return Object.fromEntries(await Promise.all(accounts));
}

async function slotsOf(state: StateReader, contract: Uint8Array) {
  const slots = [2, F - 2, F].map(async (n) => [n, bytesToHex(await state.getStorage(contract, word(n)))]);
  return {code: bytesToHex(await state.getCode(contract)), slots: Object.fromEntries(await Promise.all(slots))};
}

describe("a forked chain over a local source chain", () => {
  it("stores the anchor like a genesis at F, with the fork's first state after it", async () => {
    const source = await buildSource();
    const fork = await openFork(source, await openTempStore());
    const anchorBlock = source.blocks[F - 1]!;
    const head = fork.chain.head();
    expect([head.number, bytesToHex(head.hash), head.totalDifficulty]).toEqual([
      F,
      bytesToHex(anchorBlock.hash()),
      anchorBlock.header.difficulty,
    ]);
    expect(fork.chain.genesisHash).toEqual(anchorBlock.hash());
    expect(fork.chain.stateRootAfter(head.header)).toEqual(fork.anchor.initialState.root);
    expect(fork.chain.stateRootAfter(head.header)).not.toEqual(anchorBlock.header.stateRoot);
    expect((await fork.chain.getHeaderByNumber(F))?.hash()).toEqual(anchorBlock.hash());
    // The anchor's transactions are the upstream's: no body is stored, nothing below F either.
    expect(await fork.chain.getBlock(anchorBlock.hash())).toBeUndefined();
    expect(await fork.chain.getHeaderByNumber(F - 1)).toBeUndefined();
    const stored = await readForkAnchor(fork.store, regtest);
    expect(stored && [stored.upstreamChainId, bytesToHex(stored.hash), stored.number]).toEqual([
      regtest.params.chainId,
      bytesToHex(anchorBlock.hash()),
      F,
    ]);
    expect(stored?.header.hash()).toEqual(anchorBlock.hash());
    // The state after the anchor is the source's at F, read through the base.
    const sourceState = await source.chain.stateAt(anchorBlock.hash());
    const forkState = await fork.chain.stateAt(anchorBlock.hash());
    expect(await accountsOf(forkState, source)).toEqual(await accountsOf(sourceState, source));
    expect(await slotsOf(forkState, source.contract)).toEqual(await slotsOf(sourceState, source.contract));
  });

  it("executes a block on top as the source chain executes the same block, BLOCKHASH below F included", async () => {
    const source = await buildSource();
    const fork = await openFork(source, await openTempStore());
    const transactions = firstBlockTransactions(source);
    const forked = await mineOnFork(fork, transactions);
    // The source's own block F+1: same transactions, timestamp, coinbase and difficulty.
    const own = await source.builder.buildBlock({
      parent: source.blocks[F - 1]!,
      transactions,
      timestamp: forked.header.timestamp,
      coinbase: COINBASE,
    });
    await source.chain.importBlock(own.encode());
    expect(forked.header.difficulty).toBe(own.header.difficulty);
    for (const field of ["receiptTrieRoot", "txTrieRoot", "logsBloom"] as const) {
      expect(bytesToHex(forked.header[field]), field).toBe(bytesToHex(own.header[field]));
    }
    expect([forked.header.gasUsed, forked.header.paidFees]).toEqual([own.header.gasUsed, own.header.paidFees]);
    const forkReceipts = await fork.chain.getReceipts(forked.hash());
    expect(forkReceipts?.map((r) => r.success)).toEqual([true, true, true, true, true]);
    // A delta root, not the source's full root: the fork's state is the same all the same.
    expect(forked.header.stateRoot).not.toEqual(own.header.stateRoot);
    const forkState = await fork.chain.stateAt(forked.hash());
    const sourceState = await source.chain.stateAt(own.hash());
    expect(await accountsOf(forkState, source)).toEqual(await accountsOf(sourceState, source));
    expect(await slotsOf(forkState, source.contract)).toEqual(await slotsOf(sourceState, source.contract));
    // BLOCKHASH(F − 2) and BLOCKHASH(F) are the source chain's hashes (the slot is the block number).
    expect(await forkState.getStorage(source.contract, word(F - 2))).toEqual(source.blocks[F - 3]!.hash());
    expect(await forkState.getStorage(source.contract, word(F))).toEqual(source.blocks[F - 1]!.hash());
  });

  it("answers BLOCKHASH at or below F from the ancestry in calls, and above F from the fork's own blocks", async () => {
    const source = await buildSource();
    const fork = await openFork(source, await openTempStore());
    const first = await mineOnFork(fork, []);
    const second = await mineOnFork(fork, [
      signTx(cows[0]!, {nonce: 2n, to: source.contract, gasLimit: 100_000n, gasPrice: 1n, data: word(F + 1)}),
    ]);
    const head = fork.chain.head().header;
    const state = await fork.chain.stateAt(second.hash());
    expect(await state.getStorage(source.contract, word(F + 1))).toEqual(first.hash());
    const call = async (n: number) => {
      const number = head.number + 1;
      const result = await fork.executor.call({
        block: {...head, number, timestamp: head.timestamp + 1},
        chain: {
          blockHash: async (k) => (await fork.chain.getHeaderByNumber(k))?.hash(),
          remasc: undefined,
          forkAncestry: fork.chain.fork?.ancestry,
          headers: NO_CHAIN_HEADERS,
        },
        stateRoot: fork.chain.stateRootAfter(head),
        from: cows[3]!.address,
        to: source.contract,
        data: word(n),
        gasLimit: 100_000n,
      });
      expect(result.status).toBe(true);
      return bytesToHex(result.returnValue);
    };
    expect(await call(1)).toBe(bytesToHex(source.blocks[0]!.hash()));
    expect(await call(F)).toBe(bytesToHex(source.blocks[F - 1]!.hash()));
    expect(await call(F + 2)).toBe(bytesToHex(second.hash()));
    expect(await call(F + 3)).toBe(bytesToHex(new Uint8Array(32)));
  });

  it("pays no matured block at or below F with REMASC, and pays the fork's own", async () => {
    const source = await buildSource();
    const fork = await openFork(source, await openTempStore());
    expect(source.blocks[F - 1]!.header.paidFees).toBeGreaterThan(0n);
    const coinbaseAt = async (hash: Uint8Array) =>
      (await (await fork.chain.stateAt(hash)).getAccount(COINBASE))?.balance ?? 0n;
    const rewardAt = async (hash: Uint8Array) =>
      bytesToBigInt(
        await (await fork.chain.stateAt(hash)).getStorage(REMASC_ADDRESS, REMASC_STORAGE_KEYS.rewardBalance),
      );
    const before = await coinbaseAt(fork.anchor.header.hash());
    // REMASC's storage is read through the base: the source chain's pool at F (blocks up to F − maturity).
    const pool = await rewardAt(fork.anchor.header.hash());
    const paying = await mineOnFork(fork, [signTx(cows[1]!, {nonce: 1n, to: RECIPIENT, value: 1n, gasPrice: 1n})]);
    expect(paying.header.paidFees).toBe(21_000n);
    const maturity = regtest.params.remascMaturity;
    let block = paying;
    while (block.header.number < F + maturity) block = await mineOnFork(fork, []);
    // Block F + maturity matures the anchor: the upstream accounts for its fees, the fork processes nothing.
    expect(await coinbaseAt(block.hash())).toBe(before);
    expect(await rewardAt(block.hash())).toBe(pool);
    block = await mineOnFork(fork, []);
    // Block F+1 joins the pool, a fifth of which is paid: a fifth of that to RSK Labs, a hundredth of the
    // rest to the federators, the rest to block F+1's miner (docs/protocol/native-contracts.md §11.4).
    const reward = (pool + 21_000n) / 5n;
    const labs = reward / 5n;
    expect(await coinbaseAt(block.hash())).toBe(before + reward - labs - (reward - labs) / 100n);
    expect(await rewardAt(block.hash())).toBe(pool + 21_000n - reward);
  });

  it("takes a sibling of block F+1 as an uncle: the anchor is in the uncle family, with no uncles of its own", async () => {
    const source = await buildSource();
    const fork = await openFork(source, await openTempStore());
    // As after evm_revert to the anchor: block F+1 orphaned, another F+1 mined, and the next block takes the orphan.
    const orphan = await mineOnFork(fork, [signTx(cows[1]!, {nonce: 1n, to: RECIPIENT, value: 1n, gasPrice: 1n})]);
    await fork.chain.setHead(fork.anchor.header.hash());
    const kept = await mineOnFork(fork, [signTx(cows[1]!, {nonce: 1n, to: RECIPIENT, value: 2n, gasPrice: 1n})]);
    const next = await mineOnFork(fork, [], [orphan.header]);
    expect([next.header.number, next.header.parentHash]).toEqual([F + 2, kept.hash()]);
    expect((await fork.chain.getBlock(next.hash()))?.uncles.map((u) => u.hash())).toEqual([orphan.hash()]);
  });

  it("reopens on its store at the same head and state, and keeps extending it", async () => {
    const source = await buildSource();
    const store = await openTempStore();
    const fork = await openFork(source, store);
    const first = await mineOnFork(fork, firstBlockTransactions(source));
    const stateBefore = await fork.chain.stateAt(first.hash());
    const accountsBefore = await accountsOf(stateBefore, source);
    const slotsBefore = await slotsOf(stateBefore, source.contract);
    const dir = store.path;
    await store.close();

    const reopened = await openFork(source, await openTempStore(dir));
    const head = reopened.chain.head();
    expect([head.number, bytesToHex(head.hash)]).toEqual([F + 1, bytesToHex(first.hash())]);
    expect(reopened.chain.genesisHash).toEqual(source.blocks[F - 1]!.hash());
    expect(reopened.chain.stateRootAfter(reopened.anchor.header)).toEqual(reopened.anchor.initialState.root);
    const state = await reopened.chain.stateAt(first.hash());
    expect(await accountsOf(state, source)).toEqual(accountsBefore);
    expect(await slotsOf(state, source.contract)).toEqual(slotsBefore);
    const next = await mineOnFork(reopened, [signTx(cows[1]!, {nonce: 2n, to: RECIPIENT, value: 1n, gasPrice: 1n})]);
    expect(next.header.number).toBe(F + 2);
    expect((await (await reopened.chain.stateAt(next.hash())).getAccount(RECIPIENT))?.balance).toBe(1_235n);
  });

  it("refuses a store holding another fork, and opening a forked store from a genesis", async () => {
    const source = await buildSource();
    const store = await openTempStore();
    const fork = await openFork(source, store);
    const other = {...fork.anchor, hash: source.blocks[F - 2]!.hash(), number: F - 1};
    const openOther = Chain.openFork(defaultChainOptions, {
      store,
      chainspec: regtest,
      state: fork.state,
      fork: {anchor: other, ancestry: fork.ancestry},
    });
    await expect(openOther).rejects.toMatchObject({code: ChainErrorCode.FORK_MISMATCH});
    const openGenesis = Chain.open(defaultChainOptions, {store, chainspec: regtest, genesis: regtestGenesis});
    await expect(openGenesis).rejects.toMatchObject({code: ChainErrorCode.FORK_MISMATCH});
    // And a fork into a store holding a chain from its genesis.
    await expect(openFork(source, source.store)).rejects.toMatchObject({code: ChainErrorCode.FORK_MISMATCH});
  });

  it("writes the anchor in one batch: a failed write leaves the store empty, and a retry opens it", async () => {
    const source = await buildSource();
    const store = new FailingStore();
    store.failNext = true;
    await expect(openFork(source, store)).rejects.toThrow("disk full");
    expect(store.writes).toBe(1);
    expect((await snapshot(store)).entries).toBe(0);
    const fork = await openFork(source, store);
    expect(store.writes).toBe(2);
    expect(fork.chain.head().number).toBe(F);
    await mineOnFork(fork, []);
  });
});

/** A memory store whose next write can fail (an I/O error inside the batch). */
class FailingStore extends MemoryStore {
  failNext = false;
  writes = 0;

  override async write(batch: WriteBatch): Promise<void> {
    this.writes++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error("disk full");
    }
    await super.write(batch);
  }
}
