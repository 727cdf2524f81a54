/** Pending and queued transactions per sender, promotion, replacement, and what RPC reads of them. */
import type {Transaction} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import {beforeEach, describe, expect, it} from "vitest";
import {type TxPool, TxPoolError, TxPoolErrorCode} from "../src/index.ts";
import {cows, hashes, openPool, signTx} from "./helpers.ts";

const [alice, bob] = [cows[0]!, cows[1]!];

let pool: TxPool;
let announced: Transaction[];

beforeEach(async () => {
  ({pool} = await openPool());
  announced = [];
  pool.onPending((tx) => announced.push(tx));
});

describe("pending and queued", () => {
  it("queues a nonce gap and promotes the run when the gap fills", async () => {
    const [t0, t1, t2, t3] = [0n, 1n, 2n, 3n].map((nonce) => signTx(alice, {nonce, gasPrice: 1n}));
    expect((await pool.add(t2!)).slot).toBe("queued");
    expect((await pool.add(t3!)).slot).toBe("queued");
    expect(pool.status()).toEqual({pending: 0, queued: 2});
    expect(announced).toEqual([]);
    expect(await pool.nextNonce(alice.address)).toBe(0n);

    expect((await pool.add(t0!)).slot).toBe("pending");
    expect(hashes(announced)).toEqual(hashes([t0!]));
    expect(pool.status()).toEqual({pending: 1, queued: 2});

    expect((await pool.add(t1!)).slot).toBe("pending");
    expect(hashes(announced)).toEqual(hashes([t0!, t1!, t2!, t3!]));
    expect(pool.status()).toEqual({pending: 4, queued: 0});
    expect(await pool.nextNonce(alice.address)).toBe(4n);
    expect(await pool.nextNonce(bob.address)).toBe(0n);
  });

  it("announces before add resolves, until unsubscribed", async () => {
    const order: string[] = [];
    const unsubscribe = pool.onPending((tx) => order.push(`pending ${tx.nonce}`));
    await pool.add(signTx(alice, {nonce: 0n})).then(() => order.push("resolved 0"));
    unsubscribe();
    await pool.add(signTx(alice, {nonce: 1n})).then(() => order.push("resolved 1"));
    expect(order).toEqual(["pending 0", "resolved 0", "resolved 1"]);
  });

  it("lists content and pending transactions by sender and nonce", async () => {
    const a0 = signTx(alice, {nonce: 0n});
    const a2 = signTx(alice, {nonce: 2n});
    const b0 = signTx(bob, {nonce: 0n});
    for (const tx of [a0, a2, b0]) await pool.add(tx);
    const content = pool.content();
    expect([...content.pending.keys()].sort()).toEqual([bytesToHex(alice.address), bytesToHex(bob.address)].sort());
    expect(hashes([...content.pending.get(bytesToHex(alice.address))!.values()])).toEqual(hashes([a0]));
    expect([...content.queued.get(bytesToHex(alice.address))!.keys()]).toEqual([2n]);
    expect(content.queued.has(bytesToHex(bob.address))).toBe(false);
    expect(hashes(pool.pending()).sort()).toEqual(hashes([a0, b0]).sort());
  });

  it("serializes concurrent adds of one sender", async () => {
    const txs = Array.from({length: 20}, (_, i) => signTx(alice, {nonce: BigInt(19 - i)}));
    await Promise.all(txs.map((tx) => pool.add(tx)));
    expect(pool.status()).toEqual({pending: 20, queued: 0});
    expect(pool.pendingForBlock().map((tx) => tx.nonce)).toEqual(txs.map((tx) => tx.nonce).reverse());
  });
});

describe("replacement", () => {
  it("refuses a same-nonce transaction below the 10 % bump, replaces at or above it", async () => {
    const original = signTx(alice, {nonce: 0n, gasPrice: 100n});
    await pool.add(original);
    const low = signTx(alice, {nonce: 0n, gasPrice: 109n});
    const error = await pool.add(low).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TxPoolError);
    expect((error as TxPoolError).type).toEqual({
      code: TxPoolErrorCode.REPLACEMENT_UNDERPRICED,
      gasPrice: 109n,
      required: 110n,
    });
    expect((error as TxPoolError).message).toMatch(/^replacement transaction underpriced/);

    const enough = signTx(alice, {nonce: 0n, gasPrice: 110n});
    const result = await pool.add(enough);
    expect(result.slot).toBe("pending");
    expect(result.replaced?.hash()).toEqual(original.hash());
    expect(pool.get(original.hash())).toBeUndefined();
    expect(hashes(pool.pendingForBlock())).toEqual(hashes([enough]));
    expect(hashes(announced)).toEqual(hashes([original, enough]));
  });

  it("needs at least 1 wei more to replace a zero gas price", async () => {
    await pool.add(signTx(alice, {nonce: 0n, gasPrice: 0n}));
    const same = signTx(alice, {nonce: 0n, gasPrice: 0n, value: 1n});
    expect(await pool.add(same).catch((e: TxPoolError) => e.code)).toBe(TxPoolErrorCode.REPLACEMENT_UNDERPRICED);
    expect((await pool.add(signTx(alice, {nonce: 0n, gasPrice: 1n}))).replaced).toBeDefined();
  });

  it("replaces a queued transaction, which stays queued", async () => {
    await pool.add(signTx(alice, {nonce: 3n, gasPrice: 10n}));
    const result = await pool.add(signTx(alice, {nonce: 3n, gasPrice: 20n}));
    expect(result.slot).toBe("queued");
    expect(announced).toEqual([]);
    expect(pool.status()).toEqual({pending: 0, queued: 1});
  });
});
