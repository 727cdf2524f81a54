/** Limits: per sender and in total, with eviction of the cheapest transaction that leaves no nonce gap. */
import type {Transaction} from "@xchain/primitives";
import {describe, expect, it} from "vitest";
import {TxPoolError, TxPoolErrorCode} from "../src/index.ts";
import {POOL_ENTRY_BYTES} from "../src/pool/poolTransaction.ts";
import {cows, hashes, openPool, signTx} from "./helpers.ts";

const [alice, bob, carol, dave] = [cows[0]!, cows[1]!, cows[2]!, cows[3]!];

async function code(attempt: Promise<unknown>): Promise<string | undefined> {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TxPoolError);
  return (error as TxPoolError).code;
}

describe("limits", () => {
  it("SENDER_LIMIT: a sender at its limit may still replace", async () => {
    const {pool} = await openPool({options: {maxTransactionsPerSender: 2}});
    await pool.add(signTx(alice, {nonce: 0n, gasPrice: 1n}));
    await pool.add(signTx(alice, {nonce: 1n, gasPrice: 1n}));
    const error = await pool.add(signTx(alice, {nonce: 2n, gasPrice: 100n})).catch((e: TxPoolError) => e);
    expect(error).toBeInstanceOf(TxPoolError);
    expect((error as TxPoolError).type).toEqual({code: TxPoolErrorCode.SENDER_LIMIT, limit: 2});
    expect((error as TxPoolError).message).toMatch(/^account limit exceeded/);
    expect((await pool.add(signTx(alice, {nonce: 1n, gasPrice: 2n}))).replaced).toBeDefined();
    await pool.add(signTx(bob, {nonce: 0n}));
  });

  it("POOL_FULL unless the newcomer pays strictly more than the cheapest, which is evicted", async () => {
    const {pool} = await openPool({options: {maxTransactions: 3}});
    const [a, b, c] = [
      signTx(alice, {nonce: 0n, gasPrice: 5n}),
      signTx(bob, {nonce: 0n, gasPrice: 6n}),
      signTx(carol, {nonce: 0n, gasPrice: 7n}),
    ];
    for (const tx of [a, b, c]) await pool.add(tx);
    expect(await code(pool.add(signTx(dave, {nonce: 0n, gasPrice: 4n})))).toBe(TxPoolErrorCode.POOL_FULL);
    expect(await code(pool.add(signTx(dave, {nonce: 0n, gasPrice: 5n})))).toBe(TxPoolErrorCode.POOL_FULL);

    const d = signTx(dave, {nonce: 0n, gasPrice: 8n});
    expect((await pool.add(d)).slot).toBe("pending");
    expect(pool.get(a.hash())).toBeUndefined();
    expect(pool.stats.evicted).toBe(1);
    expect(hashes(pool.pendingForBlock())).toEqual(hashes([d, c, b]));
  });

  it("holds at most maxPoolBytes: a large newcomer evicts the cheaper ones it needs room for, or is POOL_FULL", async () => {
    const data = new Uint8Array(2_000).fill(1);
    const gasLimit = 21_000n + 16n * 2_000n;
    const big = (from: typeof alice, gasPrice: bigint) => signTx(from, {nonce: 0n, gasPrice, gasLimit, data});
    const size = (...txs: Transaction[]) => txs.reduce((sum, tx) => sum + tx.encode().length + POOL_ENTRY_BYTES, 0);
    const [a, b, c] = [big(alice, 5n), big(bob, 6n), big(carol, 7n)];
    const budget = size(a, b, c);
    const {pool} = await openPool({options: {maxPoolBytes: budget}});
    for (const tx of [a, b, c]) await pool.add(tx);
    expect(pool.cacheUsage()).toEqual({cache: "txpool", bytes: budget, budgetBytes: budget});
    const refused = await pool.add(big(dave, 5n)).catch((e: TxPoolError) => e);
    expect((refused as TxPoolError).type).toEqual({code: TxPoolErrorCode.POOL_FULL, limit: budget, unit: "bytes"});
    expect((refused as TxPoolError).message).toBe(`txpool is full: ${budget} bytes, none cheaper than this one`);

    // A small transfer fits beside them while the budget has room for it.
    const transfer = signTx(dave, {nonce: 0n, gasPrice: 1n});
    const {pool: roomy} = await openPool({options: {maxPoolBytes: budget + size(transfer)}});
    for (const tx of [a, b, c, transfer]) await roomy.add(tx);
    expect(roomy.stats.evicted).toBe(0);
    // A dearer large one evicts the cheapest ones until it fits: the transfer, then a.
    const d = big(cows[4]!, 8n);
    await roomy.add(d);
    expect(roomy.stats.evicted).toBe(2);
    expect(roomy.get(a.hash())).toBeUndefined();
    expect(hashes(roomy.pendingForBlock())).toEqual(hashes([d, c, b]));
    expect(roomy.cacheUsage().bytes).toBe(size(b, c, d));
  });

  it("evicts a sender's last nonce only, never one that opens a gap", async () => {
    const {pool} = await openPool({options: {maxTransactions: 3}});
    // alice's first transaction is the cheapest, but removing it would strand her second.
    const a0 = signTx(alice, {nonce: 0n, gasPrice: 1n});
    const a1 = signTx(alice, {nonce: 1n, gasPrice: 10n});
    const b0 = signTx(bob, {nonce: 0n, gasPrice: 5n});
    for (const tx of [a0, a1, b0]) await pool.add(tx);
    await pool.add(signTx(carol, {nonce: 0n, gasPrice: 6n}));
    expect(pool.get(b0.hash())).toBeUndefined();
    expect(pool.status()).toEqual({pending: 3, queued: 0});
  });

  it("evicts the most recent among equally cheap transactions", async () => {
    const {pool} = await openPool({options: {maxTransactions: 2}});
    const first = signTx(alice, {nonce: 0n, gasPrice: 3n});
    const second = signTx(bob, {nonce: 0n, gasPrice: 3n});
    for (const tx of [first, second]) await pool.add(tx);
    await pool.add(signTx(carol, {nonce: 0n, gasPrice: 4n}));
    expect(pool.get(first.hash())).toBeDefined();
    expect(pool.get(second.hash())).toBeUndefined();
  });

  it("does not evict the newcomer's own lower nonces", async () => {
    const {pool} = await openPool({options: {maxTransactions: 2}});
    await pool.add(signTx(alice, {nonce: 0n, gasPrice: 1n}));
    await pool.add(signTx(bob, {nonce: 0n, gasPrice: 1n}));
    // alice's nonce 0 is protected (evicting it would strand nonce 1): bob's goes.
    const a1 = signTx(alice, {nonce: 1n, gasPrice: 9n});
    expect((await pool.add(a1)).slot).toBe("pending");
    expect(pool.status()).toEqual({pending: 2, queued: 0});
    // Now alice holds both slots; her nonce 2 could only evict her own nonce 1.
    expect(await code(pool.add(signTx(alice, {nonce: 2n, gasPrice: 50n})))).toBe(TxPoolErrorCode.POOL_FULL);
  });
});
