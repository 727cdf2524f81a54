/** `Chain.setHead`: moving the head back to a stored block, and onto a side chain (regtest evm_revert). */
import {Bucket} from "@xchain/db";
import type {Block} from "@xchain/primitives";
import {afterEach, describe, expect, it} from "vitest";
import {ChainErrorCode, ImportResultKind, type NewHeadEvent} from "../src/index.ts";
import {cleanup, cows, newBuilder, openChain, signTx} from "./helpers.ts";

afterEach(cleanup);

const transfer = (nonce: number) => signTx(cows[0]!, {nonce: BigInt(nonce), to: cows[1]!.address, value: 1n});

async function canonicalHeights(store: Awaited<ReturnType<typeof openChain>>["store"]): Promise<number> {
  let count = 0;
  for await (const _ of store.entries(Bucket.canonicalHash)) count++;
  return count;
}

describe("setHead", () => {
  it("moves the head back to an ancestor in one batch and lists the removed blocks", async () => {
    const {chain, store} = await openChain();
    const builder = await newBuilder();
    const blocks: Block[] = [];
    for (let i = 0; i < 4; i++) blocks.push(await builder.buildBlock({transactions: [transfer(i)]}));
    for (const block of blocks) await chain.importBlock(block);
    const events: NewHeadEvent[] = [];
    chain.events.on("newHead", (e) => events.push(e));

    const head = await chain.setHead(blocks[1]!.hash());

    expect(head.number).toBe(2);
    expect(chain.head().hash).toEqual(blocks[1]!.hash());
    expect(head.totalDifficulty).toBe(await chain.getTotalDifficulty(blocks[1]!.hash()));
    expect(await chain.getBlockByNumber(3)).toBeUndefined();
    expect(await canonicalHeights(store)).toBe(3);
    expect(await chain.getTransactionLocation(blocks[2]!.transactions[0]!.hash())).toBeUndefined();
    expect(await chain.getTransactionLocation(blocks[1]!.transactions[0]!.hash())).toMatchObject({blockNumber: 2});
    // The removed blocks stay stored.
    expect(await chain.getBlock(blocks[3]!.hash())).toBeDefined();
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event.added).toEqual([]);
    expect(event.removed.map((b) => b.header.number)).toEqual([4, 3]);
    expect(event.droppedTransactions).toEqual([]);
    const state = await chain.stateAt(chain.head().hash);
    expect(await state.getNonce(cows[0]!.address)).toBe(2n);

    // Mining goes on from the new head: a new block 3 becomes the head.
    const b3 = await builder.buildBlock({parent: blocks[1], transactions: [transfer(2)], timestamp: 1_000});
    expect(await chain.importBlock(b3)).toMatchObject({kind: ImportResultKind.IMPORTED_BEST, number: 3});
    expect((await chain.getBlockByNumber(3))?.hash()).toEqual(b3.hash());
  });

  it("moves the head onto a stored side chain, and setting the head to itself changes nothing", async () => {
    const {chain} = await openChain();
    const builder = await newBuilder();
    const [a1, a2] = await builder.buildChain(2, {transactions: []});
    const b2 = await builder.buildBlock({parent: a1, timestamp: a1!.header.timestamp + 20});
    for (const block of [a1!, a2!, b2]) await chain.importBlock(block);
    expect(chain.head().hash).toEqual(a2!.hash());
    const events: NewHeadEvent[] = [];
    chain.events.on("newHead", (e) => events.push(e));

    await chain.setHead(b2.hash());
    expect((await chain.getBlockByNumber(2))?.hash()).toEqual(b2.hash());
    expect(events[0]!.added.map((b) => b.hash())).toEqual([b2.hash()]);
    expect(events[0]!.removed.map((b) => b.hash())).toEqual([a2!.hash()]);

    await chain.setHead(b2.hash());
    expect(events).toHaveLength(1);
  });

  it("refuses a block that is not stored", async () => {
    const {chain} = await openChain();
    await expect(chain.setHead(new Uint8Array(32))).rejects.toMatchObject({
      type: {code: ChainErrorCode.UNKNOWN_BLOCK},
    });
  });
});
