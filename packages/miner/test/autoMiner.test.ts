/**
 * The built-in CPU merge-miner (docs/protocol/mining-rpc.md §6): auto-mining a burst, the fixed interval,
 * start and stop.
 */
import type {Transaction} from "@xchain/primitives";
import {defaultTxPoolOptions, TxPool} from "@xchain/txpool";
import {describe, expect, it} from "vitest";
import {account, cows, FillingStore, openMiner, regtest, transfer, waitFor} from "./helpers.ts";

const SENDERS = 100;
const PER_SENDER = 20;

describe("auto-mining", () => {
  it(`includes a burst of ${SENDERS * PER_SENDER} transfers from ${SENDERS} senders over consecutive blocks, then stops`, {
    timeout: 120_000,
  }, async () => {
    const {chain, pool, errors, miner} = await openMiner(
      {enabled: true},
      {pool: (chain) => new TxPool(defaultTxPoolOptions, {chainspec: regtest, chain})},
    );
    const empty = () => pool.status().pending + pool.status().queued === 0;
    expect(miner.isMining()).toBe(true);
    const senders = Array.from({length: SENDERS}, (_, i) => account(`burst sender ${i}`));
    // The cow accounts fund the senders: 10 transfers each.
    await Promise.all(
      senders.map((s, i) =>
        pool.add(transfer(cows[i % 10]!, {nonce: BigInt(Math.floor(i / 10)), to: s.address, value: 10n ** 18n})),
      ),
    );
    await waitFor(empty);
    const funded = chain.head().number;

    const burst: Transaction[] = [];
    for (const sender of senders) {
      for (let n = 0; n < PER_SENDER; n++) burst.push(transfer(sender, {nonce: BigInt(n), gasPrice: 1n}));
    }
    await Promise.all(burst.map((tx) => pool.add(tx)));
    await waitFor(empty, 100_000);

    for (const tx of burst) expect(await chain.getTransactionLocation(tx.hash())).toBeDefined();
    const head = chain.head().number;
    // 21,000 gas each in blocks of about 10,000,000 gas: at least 5 blocks, and no block left empty.
    expect(head - funded).toBeGreaterThanOrEqual(5);
    for (let n = funded + 1; n <= head; n++) {
      expect((await chain.getBlockByNumber(n))!.transactions.length).toBeGreaterThan(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(chain.head().number).toBe(head);
    expect(errors).toEqual([]);
    await pool.close();
  });

  it("mines a block every blockTimeMs, even empty, while running", async () => {
    const {chain, miner} = await openMiner({enabled: true, blockTimeMs: 50});
    await waitFor(() => chain.head().number >= 3);
    miner.stopMining();
    expect(miner.isMining()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopped = chain.head().number;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(chain.head().number).toBe(stopped);
  });

  it("mines pending transactions once started, and nothing while stopped", async () => {
    const {chain, pool, miner} = await openMiner();
    expect(miner.isMining()).toBe(false);
    pool.add(transfer(cows[0]!, {nonce: 0n}));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(chain.head().number).toBe(0);
    miner.startMining();
    await waitFor(() => chain.head().number === 1);
    expect(pool.size).toBe(0);
  });

  it("tries pending transactions again after a failed block (a full disk), logging the failure once", async () => {
    const store = new FillingStore();
    const {chain, pool, miner, errors} = await openMiner({enabled: true}, {store});
    store.full = true;
    await pool.add(transfer(cows[0]!, {nonce: 0n}));
    await waitFor(() => errors.length > 0);
    // Retried every second while full, logged once.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(errors).toHaveLength(1);
    expect(chain.head().number).toBe(0);
    // Space is back: the retry mines the transaction without anything else waking the miner.
    store.full = false;
    await waitFor(() => chain.head().number === 1);
    expect(pool.size).toBe(0);
    expect(miner.isMining()).toBe(true);
  });
});
