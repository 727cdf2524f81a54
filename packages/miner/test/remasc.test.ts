/**
 * The miner's REMASC and import's agree (docs/protocol/native-contracts.md §11.1): the miner's templates read
 * the processed block and its siblings through `templateChainView`, import through its `AncestorView`; a
 * second chain re-executes every mined block, siblings' payout included, to the same roots.
 */
import {Chain, defaultChainOptions, ImportResultKind} from "@xchain/chain";
import {regtestGenesis} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {MemoryStore} from "@xchain/db";
import type {Block} from "@xchain/primitives";
import {ChainBuilder} from "@xchain/test-utils";
import {describe, expect, it} from "vitest";
import {cows, openMiner, regtest, transfer} from "./helpers.ts";

const SIBLING_MINER = new Uint8Array(20).fill(0xb1);

describe("REMASC in mined blocks", () => {
  it("pays a sibling the miner included as an uncle, and a second chain re-executes every block alike", async () => {
    const {miner, chain, pool, options} = await openMiner();
    const builder = await ChainBuilder.create({
      chainspec: regtest,
      genesis: regtestGenesis,
      difficulty: (h, p) => calculateDifficulty(h, p, regtest),
    });
    // Blocks 1…5 from the builder, so that it can build a sibling of the miner's block 6.
    const first = await builder.buildChain(5);
    for (const block of first)
      expect((await chain.importBlock(block.encode())).kind).toBe(ImportResultKind.IMPORTED_BEST);
    const sibling = await builder.buildBlock({coinbase: SIBLING_MINER, timestamp: first[4]!.header.timestamp + 3});
    pool.add(transfer(cows[0]!, {nonce: 0n, gasPrice: 7n}));
    await miner.mineBlock();
    expect((await chain.importBlock(sibling.encode())).kind).toBe(ImportResultKind.IMPORTED_NOT_BEST);
    // Block 7 takes block 6's sibling as an uncle; block 16 processes block 6 with it.
    while (chain.head().number < 16) await miner.mineBlock();
    const mined: Block[] = [];
    for (let n = 6; n <= 16; n++) mined.push((await chain.getBlockByNumber(n)) as Block);
    expect(mined[0]?.header.paidFees).toBe(21_000n * 7n);
    expect(mined[1]?.uncles.map((u) => u.hash())).toEqual([sibling.hash()]);
    const state = await chain.stateAt(chain.head().hash);
    expect(await state.getBalance(SIBLING_MINER)).toBeGreaterThan(0n);
    const logs = (await chain.getReceipts(chain.head().hash))?.at(-1)?.logs ?? [];
    // RSK Labs, three federators, the publisher, the sibling, the miner.
    expect(logs).toHaveLength(7);
    expect(logs[4]?.topics[1]?.subarray(12)).toEqual(options.coinbase);
    expect(logs[5]?.topics[1]?.subarray(12)).toEqual(SIBLING_MINER);

    const replay = await Chain.open(defaultChainOptions, {
      store: new MemoryStore(),
      chainspec: regtest,
      genesis: regtestGenesis,
    });
    for (const block of [...first, sibling, ...mined]) {
      const result = await replay.importBlock(block.encode());
      expect(result.kind, `block ${block.header.number}`).not.toBe(ImportResultKind.INVALID_BLOCK);
    }
    expect(replay.head().hash).toEqual(chain.head().hash);
  });
});
