/** Restart persistence: close and reopen the database. */
import {customChainspec, type GenesisParams, regtestGenesis} from "@xchain/chainspec";
import {LevelStore} from "@xchain/db";
import {bigIntToFixedBytes} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {Chain, ChainError, ChainErrorCode, defaultChainOptions, ImportResultKind} from "../src/index.ts";
import {emitter, incrementData} from "./contracts.ts";
import {cleanup, cows, newBuilder, openChain, regtest, signTx} from "./helpers.ts";

afterEach(cleanup);

describe("restart", () => {
  it("reopens with the same head, state, receipts, indexes and logs, and keeps importing", async () => {
    const first = await openChain();
    const builder = await newBuilder();
    const [alice] = cows;
    const deploy = await builder.build({
      transactions: [signTx(alice!, {nonce: 0n, gasLimit: 1_000_000n, data: emitter().bytecode})],
    });
    const contract = deploy.assembled.result.outcomes[0]!.contractAddress!;
    const blocks = [deploy.block];
    for (let i = 1n; i <= 3n; i++) {
      blocks.push(
        await builder.buildBlock({
          transactions: [
            signTx(alice!, {nonce: i, to: contract, gasLimit: 100_000n, gasPrice: 1n, data: incrementData(i)}),
          ],
        }),
      );
    }
    for (const block of blocks) await first.chain.importBlock(block.encode());
    const headBefore = first.chain.head();
    const logsBefore = await first.chain.getLogs({fromBlock: 0, toBlock: 10});
    await first.store.close();

    const store = await LevelStore.open(first.dir);
    const chain = await Chain.open(defaultChainOptions, {store, chainspec: regtest, genesis: regtestGenesis});
    try {
      expect(chain.genesisHash).toEqual(first.chain.genesisHash);
      const head = chain.head();
      expect([head.hash, head.number, head.totalDifficulty]).toEqual([
        headBefore.hash,
        headBefore.number,
        headBefore.totalDifficulty,
      ]);
      expect(head.header.encode()).toEqual(headBefore.header.encode());
      const state = await chain.stateAt(headBefore.hash);
      expect(await state.getStorage(contract, new Uint8Array(32))).toEqual(bigIntToFixedBytes(3n, 32));
      expect(await state.getNonce(alice!.address)).toBe(4n);
      expect((await chain.getReceipts(blocks[2]!.hash()))?.map((r) => r.success)).toEqual([true, true]);
      expect(await chain.getTransactionLocation(blocks[3]!.transactions[0]!.hash())).toEqual({
        blockHash: blocks[3]!.hash(),
        blockNumber: 4,
        index: 0,
      });
      expect(await chain.getLogs({fromBlock: 0, toBlock: 10})).toEqual(logsBefore);
      const next = await builder.buildBlock();
      expect((await chain.importBlock(next.encode())).kind).toBe(ImportResultKind.IMPORTED_BEST);
      expect(chain.head().number).toBe(5);
    } finally {
      await store.close();
    }
  });

  it("refuses a database of another genesis or chain id (CHAIN_GENESIS_MISMATCH, CHAIN_ID_MISMATCH)", async () => {
    const first = await openChain();
    await first.store.close();
    const other: GenesisParams = {...regtestGenesis, header: {...regtestGenesis.header, timestamp: 1}};
    const store = await LevelStore.open(first.dir);
    try {
      const error = await Chain.open(defaultChainOptions, {store, chainspec: regtest, genesis: other}).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ChainError);
      expect((error as ChainError).code).toBe(ChainErrorCode.GENESIS_MISMATCH);
      // The same genesis on another chain id (a custom network) has the same hash but is another chain.
      const otherId = await Chain.open(defaultChainOptions, {
        store,
        chainspec: customChainspec(77),
        genesis: regtestGenesis,
      }).catch((e) => e);
      expect((otherId as ChainError).code).toBe(ChainErrorCode.CHAIN_ID_MISMATCH);
    } finally {
      await store.close();
    }
  });
});
