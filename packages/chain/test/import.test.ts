/** Importing chains of transfers, contract deployments and calls, reverts and logs. */
import {Bucket} from "@xchain/db";
import {type Block, REMASC_ADDRESS} from "@xchain/primitives";
import {bigIntToFixedBytes, bytesToHex, equalBytes} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {ImportResultKind, type NewHeadEvent} from "../src/index.ts";
import {emitter, failData, INCREMENTED_TOPIC, incrementData, topic} from "./contracts.ts";
import {cleanup, cows, newBuilder, openChain, signTx} from "./helpers.ts";

afterEach(cleanup);

describe("import", () => {
  it("imports a chain of value transfers and indexes every block and transaction", async () => {
    const {chain, store} = await openChain();
    const builder = await newBuilder();
    const events: NewHeadEvent[] = [];
    chain.events.on("newHead", (e) => events.push(e));
    const blocks: Block[] = [];
    for (let i = 0; i < 5; i++) {
      const txs = [0, 1, 2].map((k) =>
        signTx(cows[k]!, {nonce: BigInt(i), to: cows[9]!.address, value: 1000n + BigInt(k), gasPrice: 1n}),
      );
      blocks.push(await builder.buildBlock({transactions: txs}));
    }
    for (const block of blocks) {
      expect(await chain.importBlock(block.encode())).toMatchObject({kind: ImportResultKind.IMPORTED_BEST});
    }

    const head = chain.head();
    expect(head.number).toBe(5);
    expect(head.hash).toEqual(blocks[4]!.hash());
    expect(head.totalDifficulty).toBe(6n);
    expect(events.map((e) => e.head.number)).toEqual([1, 2, 3, 4, 5]);
    expect(events.every((e) => e.added.length === 1 && e.removed.length === 0)).toBe(true);

    const state = await chain.stateAt(head.hash);
    expect(await state.getBalance(cows[9]!.address)).toBe(10n ** 30n + 5n * (1000n + 1001n + 1002n));
    expect(await state.getNonce(cows[0]!.address)).toBe(5n);
    // docs/protocol/README.md §2: every fee goes to the REMASC address (no block has matured yet: maturity 10).
    expect(await state.getBalance(REMASC_ADDRESS)).toBe(5n * 3n * 21_000n);

    for (const [i, block] of blocks.entries()) {
      expect((await chain.getBlockByNumber(i + 1))?.encode()).toEqual(block.encode());
      expect((await chain.getHeaderByNumber(i + 1))?.hash()).toEqual(block.hash());
      expect(await chain.getTotalDifficulty(block.hash())).toBe(BigInt(i + 2));
      const receipts = await chain.getReceipts(block.hash());
      expect(receipts?.map((r) => [r.success, r.gasUsed])).toEqual([
        [true, 21_000n],
        [true, 21_000n],
        [true, 21_000n],
        [true, 0n],
      ]);
      for (const [index, tx] of block.transactions.entries()) {
        expect(await chain.getTransactionLocation(tx.hash())).toEqual({
          blockHash: block.hash(),
          blockNumber: i + 1,
          index,
        });
      }
    }
    expect(await chain.getBlockByNumber(6)).toBeUndefined();
    let canonicalBlooms = 0;
    for await (const _ of store.entries(Bucket.canonicalBloom)) canonicalBlooms++;
    expect(canonicalBlooms).toBe(6);
  });

  it("deploys a contract, calls it, keeps a reverted call's fee and logs none for it", async () => {
    const {chain} = await openChain();
    const builder = await newBuilder();
    const [alice, bob] = [cows[0]!, cows[1]!];
    const deploy = await builder.build({
      transactions: [signTx(alice, {nonce: 0n, gasLimit: 1_000_000n, data: emitter().bytecode})],
    });
    const contract = deploy.assembled.result.outcomes[0]!.contractAddress!;
    const calls = await builder.build({
      transactions: [
        signTx(alice, {nonce: 1n, to: contract, gasLimit: 100_000n, data: incrementData(7n)}),
        signTx(bob, {nonce: 0n, to: contract, gasLimit: 100_000n, data: incrementData(8n)}),
        signTx(bob, {nonce: 1n, to: contract, gasLimit: 100_000n, data: failData()}),
      ],
    });
    for (const block of [deploy.block, calls.block]) {
      expect((await chain.importBlock(block.encode())).kind).toBe(ImportResultKind.IMPORTED_BEST);
    }

    const state = await chain.stateAt(chain.head().hash);
    expect((await state.getCode(contract)).length).toBeGreaterThan(0);
    expect(await state.getStorage(contract, new Uint8Array(32))).toEqual(bigIntToFixedBytes(2n, 32));

    const receipts = (await chain.getReceipts(calls.block.hash()))!;
    expect(receipts.map((r) => r.success)).toEqual([true, true, false, true]);
    expect(receipts[2]!.logs).toHaveLength(0);
    expect(receipts[1]!.logs[0]!.topics).toEqual([INCREMENTED_TOPIC, topic(bob.address), topic(2n)]);

    const logs = await chain.getLogs({fromBlock: 0, toBlock: 100, addresses: [contract]});
    expect(logs.map((l) => [l.blockNumber, l.transactionIndex, l.logIndex, l.removed])).toEqual([
      [2, 0, 0, false],
      [2, 1, 1, false],
    ]);
    expect(logs[1]!.transactionHash).toEqual(calls.block.transactions[1]!.hash());
    expect(logs[1]!.blockHash).toEqual(calls.block.hash());
    expect(bytesToHex(logs[0]!.log.data)).toBe(bytesToHex(bigIntToFixedBytes(7n, 32)));
  });

  it("imports a block given as an object exactly as its encoding", async () => {
    const {chain} = await openChain();
    const builder = await newBuilder();
    const block = await builder.buildBlock({transactions: [signTx(cows[0]!, {nonce: 0n, to: cows[1]!.address})]});
    expect((await chain.importBlock(block)).kind).toBe(ImportResultKind.IMPORTED_BEST);
    expect(equalBytes((await chain.getBlock(block.hash()))!.encode(), block.encode())).toBe(true);
  });

  it("serializes concurrent imports in call order", async () => {
    const {chain} = await openChain();
    const builder = await newBuilder();
    const blocks = await builder.buildChain(5);
    const results = await Promise.all(blocks.map((block) => chain.importBlock(block.encode())));
    expect(results.map((r) => r.kind)).toEqual(Array(5).fill(ImportResultKind.IMPORTED_BEST));
    expect(chain.head().number).toBe(5);
  });
});
