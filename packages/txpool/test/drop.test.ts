/** The dev controls' drops (docs/rpc.md §4.10): one transaction, a sender's, all of them. */
import {describe, expect, it} from "vitest";
import {cows, hashes, openPool, signTx} from "./helpers.ts";

const [alice, bob] = [cows[0]!, cows[1]!];

describe("dropping pool transactions", () => {
  it("drops one; its sender's later nonces wait behind the gap", async () => {
    const {pool} = await openPool();
    const [a0, a1, a2] = [0n, 1n, 2n].map((nonce) => signTx(alice, {nonce}));
    for (const tx of [a0!, a1!, a2!]) await pool.add(tx);
    expect(await pool.drop(a1!.hash())).toBe(true);
    expect(await pool.drop(a1!.hash())).toBe(false);
    expect(hashes(pool.pending())).toEqual(hashes([a0!]));
    expect(pool.status()).toEqual({pending: 1, queued: 1});
  });

  it("drops a sender's transactions, then every transaction", async () => {
    const {pool} = await openPool();
    for (const tx of [signTx(alice, {nonce: 0n}), signTx(alice, {nonce: 3n}), signTx(bob, {nonce: 0n})]) {
      await pool.add(tx);
    }
    expect(await pool.dropSender(alice.address)).toBe(2);
    expect(pool.status()).toEqual({pending: 1, queued: 0});
    await pool.add(signTx(alice, {nonce: 0n}));
    expect(await pool.dropAll()).toBe(2);
    expect(pool.status()).toEqual({pending: 0, queued: 0});
    expect(pool.content().pending.size).toBe(0);
  });
});
