/** The pending block: built on the head from the pool, kept until the head, the pool or the clock moves. */
import {bytesToHex, equalBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {cows, openMiner, transfer} from "./helpers.ts";

describe("the pending block", () => {
  it("is the next block on the head with the pool's transactions, and is kept while nothing changes", async () => {
    const {miner, pool, chain} = await openMiner();
    const first = await miner.pendingBlock();
    expect(first.block.header.number).toBe(1);
    expect(equalBytes(first.block.header.parentHash, chain.head().hash)).toBe(true);
    expect(await miner.pendingBlock()).toBe(first);

    const tx = transfer(cows[0]!, {nonce: 0n});
    pool.add(tx);
    const withTx = await miner.pendingBlock();
    expect(withTx).not.toBe(first);
    expect(withTx.block.transactions.map((t) => bytesToHex(t.hash()))[0]).toBe(bytesToHex(tx.hash()));
    expect(withTx.receipts).toHaveLength(2);
    expect(withTx.receipts[0]!.success).toBe(true);
  });

  it("is rebuilt on a new head and when evm_increaseTime shifts the clock", async () => {
    const {miner} = await openMiner();
    const before = await miner.pendingBlock();
    await miner.mineBlock();
    const onNewHead = await miner.pendingBlock();
    expect(onNewHead.block.header.number).toBe(2);
    miner.increaseTime(3_600);
    const shifted = await miner.pendingBlock();
    expect(shifted).not.toBe(onNewHead);
    expect(shifted.block.header.timestamp).toBeGreaterThanOrEqual(before.block.header.timestamp + 3_600);
  });

  it("shares one build between concurrent requests", async () => {
    const {miner, pool} = await openMiner();
    pool.add(transfer(cows[1]!, {nonce: 0n}));
    const [a, b] = await Promise.all([miner.pendingBlock(), miner.pendingBlock()]);
    expect(a).toBe(b);
  });
});
