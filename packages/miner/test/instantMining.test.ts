/**
 * Instant mining (`MinerOptions.instant`, regtest's default): a block the moment a transaction is
 * pending, with no debounce; `whenMined` holds the sender's answer until its block is in; a burst
 * is coalesced into a few blocks; interval blocks still come when configured.
 */

import {bytesToBigInt} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {account, cows, openMiner, settlesAtOnce, solvedBlock, transfer, waitFor} from "./helpers.ts";

describe("instant mining", () => {
  it("is regtest's default", async () => {
    const {options} = await openMiner();
    expect(options.instant).toBe(true);
  });

  it("mines a pending transaction without waiting for pendingDebounceMs, and whenMined resolves once it is in", async () => {
    // A debounce far longer than the test: only the instant path can mine the transaction in time.
    const {chain, pool, miner} = await openMiner({enabled: true, pendingDebounceMs: 60_000});
    const tx = transfer(cows[0]!, {nonce: 0n});
    pool.add(tx);
    await miner.whenMined(tx.hash());
    expect(await chain.getTransactionLocation(tx.hash())).toBeDefined();
    expect(chain.head().number).toBe(1);
  });

  it("executes a block it mines once, at assembly: the import takes the template's execution", async () => {
    const {chain, pool, miner, importExecutions} = await openMiner({enabled: true});
    const txs = [0n, 1n, 2n].map((nonce) => transfer(cows[0]!, {nonce}));
    for (const tx of txs) {
      pool.add(tx);
      await miner.whenMined(tx.hash());
    }
    await miner.mineBlock();
    expect(chain.head().number).toBeGreaterThanOrEqual(2);
    for (const tx of txs) expect(await chain.getTransactionLocation(tx.hash())).toBeDefined();
    expect(importExecutions()).toBe(0);
  });

  it("builds no template on a new head that nothing pending needs, and work requests still get fresh work", async () => {
    const {chain, pool, miner, assemblies} = await openMiner({enabled: true});
    const txs = [0n, 1n, 2n].map((nonce) => transfer(cows[0]!, {nonce}));
    // Its look at the (empty) pool at start.
    await waitFor(() => assemblies() === 1);
    for (const tx of txs) {
      pool.add(tx);
      await miner.whenMined(tx.hash());
    }
    await miner.close();
    expect(chain.head().number).toBe(3);
    // One template per transfer besides: none on the heads they made.
    expect(assemblies()).toBe(1 + txs.length);
    // mnr_getWork builds on the head when asked: its block extends block 3.
    const work = await miner.getWork();
    const result = await miner.submitBitcoinBlock(
      solvedBlock(work.blockHashForMergedMining, bytesToBigInt(work.target)),
    );
    expect(result.blockIncludedHeight).toBe(4);
    expect(chain.head().number).toBe(4);
  });

  it("answers whenMined at once for a transaction it does not expect", async () => {
    const {miner} = await openMiner({enabled: true});
    expect(await settlesAtOnce(miner.whenMined(transfer(cows[1]!, {nonce: 0n}).hash()))).toBe(true);
  });

  it("waits for the debounce when instant is off", async () => {
    const {chain, pool} = await openMiner({enabled: true, instant: false, pendingDebounceMs: 300});
    // The miner's look at the pool at start-up is over (it would take the transaction at once).
    await new Promise((resolve) => setTimeout(resolve, 200));
    pool.add(transfer(cows[0]!, {nonce: 0n}));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(chain.head().number).toBe(0);
    await waitFor(() => chain.head().number === 1);
  });

  it("coalesces a burst: transactions arriving while a block is mined go in the next, not one block each", {
    timeout: 60_000,
  }, async () => {
    const {chain, pool, miner, errors} = await openMiner({enabled: true});
    const senders = Array.from({length: 20}, (_, i) => account(`instant sender ${i}`));
    const funding = senders.map((s, i) =>
      transfer(cows[i % 10]!, {nonce: BigInt(Math.floor(i / 10)), to: s.address, value: 10n ** 18n}),
    );
    for (const tx of funding) pool.add(tx);
    await waitFor(() => pool.size === 0);
    const funded = chain.head().number;

    const burst = senders.flatMap((s) => Array.from({length: 10}, (_, n) => transfer(s, {nonce: BigInt(n)})));
    for (const tx of burst) pool.add(tx);
    await Promise.all(burst.map((tx) => miner.whenMined(tx.hash())));
    await waitFor(() => pool.size === 0);
    for (const tx of burst) expect(await chain.getTransactionLocation(tx.hash())).toBeDefined();
    // 200 transfers arrive together: the first block takes what is pending when it starts, the rest follow.
    expect(chain.head().number - funded).toBeLessThanOrEqual(3);
    expect(errors).toEqual([]);
  });

  it("still mines an empty block every blockTimeMs when configured", async () => {
    const {chain} = await openMiner({enabled: true, blockTimeMs: 50});
    await waitFor(() => chain.head().number >= 3);
    expect((await chain.getBlockByNumber(1))!.transactions.length).toBe(1);
  });
});
