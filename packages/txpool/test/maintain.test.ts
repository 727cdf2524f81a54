/** Maintenance on a real chain: included and stale transactions leave, reorgs re-admit, balances and lifetimes are re-checked. */
import {ImportResultKind} from "@xchain/chain";
import type {Block, Transaction} from "@xchain/primitives";
import {describe, expect, it} from "vitest";
import {account, cows, hashes, openPool, signTx, type TestPool} from "./helpers.ts";

const [alice, bob, carol] = [cows[0]!, cows[1]!, cows[2]!];

async function importAll({chain, pool}: TestPool, blocks: Block[]): Promise<string[]> {
  const kinds: string[] = [];
  for (const block of blocks) kinds.push((await chain.importBlock(block.encode())).kind);
  await pool.settled();
  return kinds;
}

describe("maintenance", () => {
  it("drops the transactions a new block includes and keeps the rest", async () => {
    const setup = await openPool();
    const {pool, builder} = setup;
    const txs = [signTx(alice, {nonce: 0n}), signTx(alice, {nonce: 1n}), signTx(bob, {nonce: 0n, gasPrice: 2n})];
    for (const tx of txs) await pool.add(tx);
    const later = signTx(alice, {nonce: 2n});
    const block = await builder.buildBlock({transactions: pool.pendingForBlock()});
    const beforeLater = pool.revision();
    await pool.add(later);
    const beforeImport = pool.revision();
    expect(beforeImport).not.toBe(beforeLater);

    expect(await importAll(setup, [block])).toEqual([ImportResultKind.IMPORTED_BEST]);
    // The pending block depends on the pool's content: every change moves the revision.
    expect(pool.revision()).not.toBe(beforeImport);
    expect(pool.status()).toEqual({pending: 1, queued: 0});
    expect(hashes(pool.pendingForBlock())).toEqual(hashes([later]));
    expect(pool.stats.included).toBe(3);
    expect(await pool.nextNonce(alice.address)).toBe(3n);
  });

  it("drops a transaction whose nonce the chain used for another one, and promotes what follows", async () => {
    const setup = await openPool();
    const {pool, builder} = setup;
    const pooled = signTx(alice, {nonce: 0n, value: 1n});
    const queued = signTx(alice, {nonce: 2n});
    await pool.add(pooled);
    await pool.add(queued);
    const announced: Transaction[] = [];
    pool.onPending((tx) => announced.push(tx));
    // The chain includes nonces 0 and 1 under other hashes: nonce 2 becomes executable.
    const block = await builder.buildBlock({transactions: [signTx(alice, {nonce: 0n}), signTx(alice, {nonce: 1n})]});
    await importAll(setup, [block]);
    expect(pool.get(pooled.hash())).toBeUndefined();
    expect(pool.stats).toMatchObject({included: 0, stale: 1});
    expect(hashes(announced)).toEqual(hashes([queued]));
    expect(pool.status()).toEqual({pending: 1, queued: 0});
  });

  it("drops what the sender can no longer pay after a block spent its balance", async () => {
    const poor = account("maintain poor");
    const setup = await openPool({alloc: [{address: poor.address, balance: 100_000n}]});
    const {pool, builder} = setup;
    const p0 = signTx(poor, {nonce: 0n, gasPrice: 1n});
    const p1 = signTx(poor, {nonce: 1n, gasPrice: 1n});
    await pool.add(p0);
    await pool.add(p1);
    // Nonce 0 is mined with a value that leaves less than p1's 21,000.
    const spend = signTx(poor, {nonce: 0n, gasPrice: 1n, value: 60_000n});
    await importAll(setup, [await builder.buildBlock({transactions: [spend]})]);
    expect(pool.status()).toEqual({pending: 0, queued: 0});
    expect(pool.stats).toMatchObject({stale: 1, unaffordable: 1});
  });

  it("re-admits the transactions of blocks that left the canonical chain", async () => {
    const setup = await openPool();
    const {pool, builder} = setup;
    const genesis = builder.genesis;
    const a0 = signTx(alice, {nonce: 0n, gasPrice: 1n});
    const b0 = signTx(bob, {nonce: 0n, gasPrice: 1n});
    for (const tx of [a0, b0]) await pool.add(tx);
    const mined = await builder.buildBlock({parent: genesis, transactions: pool.pendingForBlock()});
    await importAll(setup, [mined]);
    const a1 = signTx(alice, {nonce: 1n, gasPrice: 1n});
    await pool.add(a1);
    expect(pool.status()).toEqual({pending: 1, queued: 0});

    // A longer branch without them: alice's nonce 1 waits for nonce 0 again, which comes back.
    const announced: Transaction[] = [];
    pool.onPending((tx) => announced.push(tx));
    const fork = await builder.buildChain(2, {parent: genesis});
    expect(await importAll(setup, fork)).toEqual([ImportResultKind.IMPORTED_NOT_BEST, ImportResultKind.IMPORTED_BEST]);
    expect(pool.stats).toMatchObject({readmitted: 2, readmitRefused: 0});
    expect(pool.status()).toEqual({pending: 3, queued: 0});
    expect(hashes(pool.pendingForBlock()).sort()).toEqual(hashes([a0, a1, b0]).sort());
    expect(hashes(announced).sort()).toEqual(hashes([a0, a1, b0]).sort());
  });

  it("counts, and drops, removed transactions that the new branch made invalid", async () => {
    const setup = await openPool();
    const {pool, builder} = setup;
    const genesis = builder.genesis;
    const a0 = signTx(alice, {nonce: 0n, gasPrice: 1n});
    const mined = await builder.buildBlock({parent: genesis, transactions: [a0]});
    await importAll(setup, [mined]);
    // The new branch spends alice's nonce 0 on another transaction.
    const f1 = await builder.buildBlock({parent: genesis, transactions: [signTx(alice, {nonce: 0n, value: 7n})]});
    const f2 = await builder.buildBlock({parent: f1});
    await importAll(setup, [f1, f2]);
    expect(pool.stats).toMatchObject({readmitted: 0, readmitRefused: 1});
    expect(pool.get(a0.hash())).toBeUndefined();
  });

  it("expires queued transactions after their lifetime, not pending ones", async () => {
    let now = 1_000;
    const setup = await openPool({nowMs: () => now, options: {queuedLifetimeMs: 60_000}});
    const {pool, builder} = setup;
    const pending = signTx(alice, {nonce: 0n});
    const queued = signTx(carol, {nonce: 3n});
    for (const tx of [pending, queued]) await pool.add(tx);
    now += 60_001;
    await importAll(setup, [await builder.buildBlock()]);
    expect(pool.get(queued.hash())).toBeUndefined();
    expect(pool.get(pending.hash())).toBeDefined();
    expect(pool.stats.expired).toBe(1);
  });

  it("stops following the chain when closed", async () => {
    const setup = await openPool();
    const {pool, builder} = setup;
    await pool.add(signTx(alice, {nonce: 0n}));
    const block = await builder.buildBlock({transactions: pool.pendingForBlock()});
    await pool.close();
    await importAll(setup, [block]);
    expect(pool.status()).toEqual({pending: 1, queued: 0});
  });
});

describe("maintenance after an edit of the head's state (dev controls)", () => {
  it("re-checks every sender: a raised nonce makes transactions stale, a set balance drops or keeps them", async () => {
    const setup = await openPool();
    const {pool, chain} = setup;
    const stale = signTx(alice, {nonce: 0n});
    const waiting = signTx(bob, {nonce: 3n});
    const costly = signTx(carol, {nonce: 0n, gasPrice: 1n});
    for (const tx of [stale, waiting, costly]) await pool.add(tx);
    expect(pool.status()).toEqual({pending: 2, queued: 1});
    const announced: Transaction[] = [];
    pool.onPending((tx) => announced.push(tx));

    await chain.editHeadState(async (state) => {
      await state.setNonce(alice.address, 1n);
      await state.setNonce(bob.address, 3n);
      await state.setBalance(carol.address, 0n);
    });
    await pool.settled();

    expect(pool.get(stale.hash())).toBeUndefined();
    expect(pool.get(costly.hash())).toBeUndefined();
    expect(hashes(announced)).toEqual(hashes([waiting]));
    expect(pool.status()).toEqual({pending: 1, queued: 0});
    expect(pool.stats).toMatchObject({stale: 1, unaffordable: 1});
    expect(await pool.nextNonce(alice.address)).toBe(1n);
  });
});
