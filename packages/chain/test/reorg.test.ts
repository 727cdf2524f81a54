/** Fork choice and reorganizations (docs/protocol/consensus.md §2): depth 1 and 10, and a heavier but shorter chain. */
import type {Block, Transaction} from "@xchain/primitives";
import type {ChainBuilder} from "@xchain/test-utils";
import {bytesToHex} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {type Chain, ImportResultKind, type NewHeadEvent} from "../src/index.ts";
import {emitter, INCREMENTED_TOPIC, incrementData, topic} from "./contracts.ts";
import {cleanup, cows, newBuilder, openChain, signTx} from "./helpers.ts";

afterEach(cleanup);

const [alice, bob, carol] = [cows[0]!, cows[1]!, cows[2]!];

/** A chain and a builder that share block 1, which deploys the Emitter. */
async function withContract(): Promise<{
  chain: Chain;
  builder: ChainBuilder;
  c1: Block;
  contract: Uint8Array;
  events: NewHeadEvent[];
}> {
  const {chain} = await openChain();
  const builder = await newBuilder();
  const built = await builder.build({
    transactions: [signTx(alice, {nonce: 0n, gasLimit: 1_000_000n, data: emitter().bytecode})],
  });
  await chain.importBlock(built.block.encode());
  const events: NewHeadEvent[] = [];
  chain.events.on("newHead", (e) => events.push(e));
  const contract = built.assembled.result.outcomes[0]!.contractAddress!;
  return {chain, builder, c1: built.block, contract, events};
}

/**
 * An increment by `from`; gasPrice 1 on the first chain gives it fees, so that equal total difficulty keeps
 * it (docs/protocol/consensus.md §2).
 */
function increment(from: typeof alice, nonce: bigint, contract: Uint8Array, gasPrice: bigint): Transaction {
  return signTx(from, {nonce, to: contract, gasLimit: 100_000n, gasPrice, data: incrementData(nonce)});
}

async function importAll(chain: Chain, blocks: Block[]): Promise<string[]> {
  const kinds: string[] = [];
  for (const block of blocks) kinds.push((await chain.importBlock(block.encode())).kind);
  return kinds;
}

const hex = (txs: readonly Transaction[]) => txs.map((tx) => bytesToHex(tx.hash()));

describe("reorganizations", () => {
  it("depth 1: logs and transactions move to the heavier chain", async () => {
    const {chain, builder, c1, contract, events} = await withContract();
    const aliceIncrement = increment(alice, 1n, contract, 1n);
    const carolTransfer = signTx(carol, {nonce: 0n, to: bob.address, value: 5n, gasPrice: 1n});
    const a2 = await builder.buildBlock({parent: c1, transactions: [aliceIncrement, carolTransfer]});
    const b2 = await builder.buildBlock({parent: c1, transactions: [increment(bob, 0n, contract, 0n)]});
    const b3 = await builder.buildBlock({parent: b2, transactions: [aliceIncrement]});

    expect(await importAll(chain, [a2, b2])).toEqual([
      ImportResultKind.IMPORTED_BEST,
      ImportResultKind.IMPORTED_NOT_BEST,
    ]);
    expect((await chain.getBlock(b2.hash()))?.hash()).toEqual(b2.hash());
    expect((await chain.getBlockByNumber(2))?.hash()).toEqual(a2.hash());
    expect(await importAll(chain, [b3])).toEqual([ImportResultKind.IMPORTED_BEST]);

    const event = events.at(-1)!;
    expect(events).toHaveLength(2);
    expect(event.head.hash).toEqual(b3.hash());
    expect(event.removed.map((b) => b.hash())).toEqual([a2.hash()]);
    expect(event.added.map((b) => b.hash())).toEqual([b2.hash(), b3.hash()]);
    expect(event.removedLogs.map((l) => [l.blockNumber, l.removed, bytesToHex(l.blockHash)])).toEqual([
      [2, true, bytesToHex(a2.hash())],
    ]);
    expect(event.addedLogs.map((l) => [l.blockNumber, l.removed])).toEqual([
      [2, false],
      [3, false],
    ]);
    expect(hex(event.droppedTransactions)).toEqual(hex([carolTransfer]));

    expect((await chain.getBlockByNumber(2))?.hash()).toEqual(b2.hash());
    expect((await chain.getBlockByNumber(3))?.hash()).toEqual(b3.hash());
    expect(await chain.getTransactionLocation(aliceIncrement.hash())).toEqual({
      blockHash: b3.hash(),
      blockNumber: 3,
      index: 0,
    });
    expect(await chain.getTransactionLocation(carolTransfer.hash())).toBeUndefined();
    const logs = await chain.getLogs({fromBlock: 0, toBlock: 10, addresses: [contract]});
    expect(logs.map((l) => bytesToHex(l.blockHash))).toEqual([b2, b3].map((b) => bytesToHex(b.hash())));
    const state = await chain.stateAt(chain.head().hash);
    expect(await state.getBalance(bob.address)).toBe(10n ** 30n);
  });

  it("depth 10: the canonical index, locations, logs and events follow an 11-block side chain", async () => {
    const {chain, builder, c1, contract, events} = await withContract();
    const aliceTxs = Array.from({length: 10}, (_, i) => increment(alice, BigInt(i + 1), contract, 1n));
    const carolTxs = Array.from({length: 10}, (_, i) =>
      signTx(carol, {nonce: BigInt(i), to: bob.address, value: 1n, gasPrice: 1n}),
    );
    const chainA: Block[] = [];
    for (let i = 0; i < 10; i++) {
      chainA.push(
        await builder.buildBlock({parent: i === 0 ? c1 : undefined, transactions: [aliceTxs[i]!, carolTxs[i]!]}),
      );
    }
    const chainB: Block[] = [];
    for (let i = 0; i < 11; i++) {
      // Alice's first three increments move to B's blocks 5 to 7.
      const moved = i >= 3 && i < 6 ? [aliceTxs[i - 3]!] : [];
      const transactions = [increment(bob, BigInt(i), contract, 0n), ...moved];
      chainB.push(await builder.buildBlock({parent: i === 0 ? c1 : undefined, transactions}));
    }

    expect(new Set(await importAll(chain, chainA))).toEqual(new Set([ImportResultKind.IMPORTED_BEST]));
    const kindsB = await importAll(chain, chainB);
    expect(kindsB.slice(0, 10)).toEqual(Array(10).fill(ImportResultKind.IMPORTED_NOT_BEST));
    expect(kindsB[10]).toBe(ImportResultKind.IMPORTED_BEST);

    const event = events.at(-1)!;
    expect(event.removed.map((b) => b.header.number)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    expect(event.added.map((b) => b.header.number)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(event.removedLogs.map((l) => l.blockNumber)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(event.removedLogs.every((l) => l.removed)).toBe(true);
    expect(event.addedLogs).toHaveLength(14);
    expect(hex(event.droppedTransactions)).toEqual(
      hex(
        chainA
          .flatMap((b) => b.transactions.slice(0, -1))
          .filter((tx) => !hex(aliceTxs.slice(0, 3)).includes(bytesToHex(tx.hash()))),
      ),
    );

    for (const [i, block] of chainB.entries()) {
      expect((await chain.getBlockByNumber(i + 2))?.hash()).toEqual(block.hash());
      for (const [index, tx] of block.transactions.entries()) {
        expect(await chain.getTransactionLocation(tx.hash())).toEqual({
          blockHash: block.hash(),
          blockNumber: i + 2,
          index,
        });
      }
    }
    for (const tx of [...aliceTxs.slice(3), ...carolTxs])
      expect(await chain.getTransactionLocation(tx.hash())).toBeUndefined();

    const all = await chain.getLogs({fromBlock: 0, toBlock: 100});
    expect(all.map((l) => l.blockNumber)).toEqual([2, 3, 4, 5, 5, 6, 6, 7, 7, 8, 9, 10, 11, 12]);
    const byAlice = await chain.getLogs({
      fromBlock: 0,
      toBlock: 100,
      topics: [INCREMENTED_TOPIC, topic(alice.address)],
    });
    expect(byAlice.map((l) => l.blockNumber)).toEqual([5, 6, 7]);
    const state = await chain.stateAt(chain.head().hash);
    expect(await state.getNonce(alice.address)).toBe(4n);
    expect(await state.getNonce(carol.address)).toBe(0n);
  });

  it("a heavier chain with fewer blocks (uncles count, docs/protocol/consensus.md §2) deletes the canonical entries above its head", async () => {
    const {chain, builder, c1, events} = await withContract();
    const chainA = await builder.buildChain(3, {parent: c1});
    const x2 = await builder.buildBlock({parent: c1, extraData: Uint8Array.of(1)});
    const y2 = await builder.buildBlock({parent: c1, extraData: Uint8Array.of(2)});
    const c3 = await builder.buildBlock({parent: x2, uncles: [chainA[0]!.header, y2.header]});
    await importAll(chain, chainA);
    expect(chain.head().totalDifficulty).toBe(5n);
    expect(await importAll(chain, [x2, c3])).toEqual([
      ImportResultKind.IMPORTED_NOT_BEST,
      ImportResultKind.IMPORTED_BEST,
    ]);
    expect(chain.head()).toMatchObject({number: 3, totalDifficulty: 6n});
    expect(events.at(-1)!.removed.map((b) => b.header.number)).toEqual([4, 3, 2]);
    expect(await chain.getBlockByNumber(4)).toBeUndefined();
    expect((await chain.getBlockByNumber(3))?.hash()).toEqual(c3.hash());
    expect(await chain.getLogs({fromBlock: 4, toBlock: 4})).toEqual([]);
    // The old chain's blocks stay stored by hash, and extending it again moves the head back.
    expect((await chain.getBlock(chainA[2]!.hash()))?.hash()).toEqual(chainA[2]!.hash());
    const a5 = await builder.buildBlock({parent: chainA[2]!});
    const a6 = await builder.buildBlock({parent: a5});
    expect(await importAll(chain, [a5, a6])).toEqual([
      ImportResultKind.IMPORTED_NOT_BEST,
      ImportResultKind.IMPORTED_BEST,
    ]);
    expect(chain.head().number).toBe(6);
  });
});
