/** A dev snapshot of the pool and its restore (`evm_snapshot`/`evm_revert`, docs/rpc.md §4.10). */
import {Transaction} from "@xchain/primitives";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {cows, hashes, openPool, regtest, signTx} from "./helpers.ts";

const [alice, bob] = [cows[0]!, cows[1]!];

describe("pool snapshots", () => {
  it("restore brings back the snapshot's pending and queued transactions and drops later ones", async () => {
    const {pool} = await openPool();
    const a0 = signTx(alice, {nonce: 0n, gasPrice: 1n});
    const a2 = signTx(alice, {nonce: 2n, gasPrice: 1n});
    await pool.add(a0);
    await pool.add(a2);
    const snapshot = pool.snapshot();
    expect(hashes(snapshot.transactions)).toEqual(hashes([a0, a2]));

    const b0 = signTx(bob, {nonce: 0n, gasPrice: 1n});
    await pool.add(b0);
    await pool.add(signTx(alice, {nonce: 1n, gasPrice: 1n}));
    expect(pool.status()).toEqual({pending: 4, queued: 0});

    const announced: Transaction[] = [];
    pool.onPending((tx) => announced.push(tx));
    const revision = pool.revision();
    expect(await pool.restore(snapshot)).toBe(2);
    expect(pool.status()).toEqual({pending: 1, queued: 1});
    expect(hashes(pool.pending())).toEqual(hashes([a0]));
    expect(pool.get(b0.hash())).toBeUndefined();
    expect(await pool.nextNonce(bob.address)).toBe(0n);
    // The miner hears of the pending one again, and the pool's revision moved (the pending block is rebuilt).
    expect(hashes(announced)).toEqual(hashes([a0]));
    expect(pool.revision()).not.toBe(revision);
  });

  it("an empty snapshot empties the pool; a snapshot is unchanged by later adds", async () => {
    const {pool} = await openPool();
    const empty = pool.snapshot();
    await pool.add(signTx(alice, {nonce: 0n}));
    expect(empty.transactions).toEqual([]);
    expect(await pool.restore(empty)).toBe(0);
    expect(pool.status()).toEqual({pending: 0, queued: 0});
  });

  it("an impersonated transaction comes back though its sender is no longer impersonated", async () => {
    const keyless = hexToBytes("0x00000000000000000000000000000000000c0ffe");
    const impersonated = new Set([bytesToHex(keyless)]);
    const {pool} = await openPool({
      alloc: [{address: keyless, balance: 10n ** 18n}],
      impersonation: {enabled: true, allows: (sender) => impersonated.has(bytesToHex(sender))},
    });
    const values = {
      gasPrice: 0n,
      gasLimit: 21_000n,
      value: 1n,
      data: new Uint8Array(0),
      to: cows[9]!.address,
      nonce: 0n,
    };
    const tx = Transaction.impersonate(values, keyless, regtest.params.chainId);
    await pool.add(tx);
    const snapshot = pool.snapshot();
    impersonated.clear();
    expect(await pool.restore(snapshot)).toBe(1);
    expect(hashes(pool.pending())).toEqual(hashes([tx]));
  });
});
