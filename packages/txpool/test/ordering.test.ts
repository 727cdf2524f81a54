/** `pendingForBlock`: the best gas price first across senders, nonce order within a sender, ties by arrival. */
import type {Transaction} from "@xchain/primitives";
import type {DevAccount} from "@xchain/test-utils";
import {bytesToHex} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {account, cows, hashes, openPool, signTx} from "./helpers.ts";

const [alice, bob, carol] = [cows[0]!, cows[1]!, cows[2]!];

/**
 * The violations of block order in `order`: a sender's nonces that do not ascend one by one, or a
 * transaction taken while another sender's next one pays more (or as much, admitted earlier;
 * `arrival` gives each hash its admission rank).
 */
function orderViolations(order: readonly Transaction[], arrival: Map<string, number>): string[] {
  const bySender = new Map<string, Transaction[]>();
  for (const tx of order) {
    const key = bytesToHex(tx.sender());
    bySender.set(key, [...(bySender.get(key) ?? []), tx]);
  }
  const violations: string[] = [];
  for (const [key, txs] of bySender) {
    if (txs.some((tx, i) => tx.nonce !== (txs[0] as Transaction).nonce + BigInt(i)))
      violations.push(`nonces of ${key}`);
  }
  const next = new Map([...bySender.keys()].map((key) => [key, 0]));
  const rank = (tx: Transaction) => arrival.get(bytesToHex(tx.hash())) as number;
  for (const tx of order) {
    const key = bytesToHex(tx.sender());
    for (const [other, index] of next) {
      const head = (bySender.get(other) as Transaction[])[index];
      if (!head || other === key) continue;
      if (head.gasPrice > tx.gasPrice || (head.gasPrice === tx.gasPrice && rank(head) < rank(tx))) {
        violations.push(`${bytesToHex(head.hash())} before ${bytesToHex(tx.hash())}`);
      }
    }
    next.set(key, (next.get(key) as number) + 1);
  }
  return violations;
}

/** A deterministic shuffle (a linear congruential generator). */
function shuffle<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe("pendingForBlock", () => {
  it("orders by gas price across senders, by nonce within one, ties by arrival", async () => {
    const {pool} = await openPool();
    const a0 = signTx(alice, {nonce: 0n, gasPrice: 10n});
    const a1 = signTx(alice, {nonce: 1n, gasPrice: 50n});
    const b0 = signTx(bob, {nonce: 0n, gasPrice: 20n});
    const b1 = signTx(bob, {nonce: 1n, gasPrice: 5n});
    const c0 = signTx(carol, {nonce: 0n, gasPrice: 20n});
    const queued = signTx(carol, {nonce: 5n, gasPrice: 99n});
    for (const tx of [a1, a0, b0, b1, c0, queued]) await pool.add(tx);
    expect(hashes(pool.pendingForBlock())).toEqual(hashes([b0, c0, a0, a1, b1]));
  });

  it("admits and orders a burst of 2,000 transactions from 100 senders", async () => {
    const senders: DevAccount[] = Array.from({length: 100}, (_, i) => account(`burst ${i}`));
    const {pool} = await openPool({alloc: senders.map((s) => ({address: s.address, balance: 10n ** 24n}))});
    const txs = senders.flatMap((sender, s) =>
      Array.from({length: 20}, (_, n) =>
        signTx(sender, {nonce: BigInt(n), gasPrice: BigInt(1 + ((s * 7 + n * 13) % 50))}),
      ),
    );
    // Arrival out of nonce order: queued transactions are promoted as their gaps fill.
    const arrivals = shuffle(txs, 42);
    const results = await Promise.all(arrivals.map((tx) => pool.add(tx)));
    expect(results).toHaveLength(2_000);
    expect(pool.status()).toEqual({pending: 2_000, queued: 0});

    const order = pool.pendingForBlock();
    expect(order).toHaveLength(2_000);
    const rank = new Map(arrivals.map((tx, i) => [bytesToHex(tx.hash()), i]));
    expect(orderViolations(order, rank)).toEqual([]);
    expect(orderViolations([...order].reverse(), rank)).not.toEqual([]);
    for (const sender of senders) expect(await pool.nextNonce(sender.address)).toBe(20n);
  });
});
