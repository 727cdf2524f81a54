/** Block templates: pool order, skipped transactions, REMASC last, gas limit and mgp movement, uncles. */
import {ImportResultKind} from "@xchain/chain";
import {regtestGenesis} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {FORK_DETECTION_MIN_BLOCK, readForkDetectionData} from "@xchain/merged-mining";
import {isRemascTransaction} from "@xchain/primitives";
import {ChainBuilder} from "@xchain/test-utils";
import {bytesToHex} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {nextGasLimit, nextMinimumGasPrice} from "../src/index.ts";
import {cows, openMiner, regtest, solvedBlock, transfer} from "./helpers.ts";

const [alice, bob, carol] = [cows[0]!, cows[1]!, cows[2]!];

describe("block templates", () => {
  it("include the pool's transactions in its order, skip invalid ones and end with the REMASC transaction", async () => {
    const {miner, pool, chain} = await openMiner();
    const cheap = transfer(alice, {nonce: 0n, gasPrice: 1n});
    const dear = transfer(bob, {nonce: 0n, gasPrice: 5n});
    const dearNext = transfer(bob, {nonce: 1n, gasPrice: 5n});
    const gap = transfer(carol, {nonce: 3n, gasPrice: 9n});
    pool.add(cheap, dear, dearNext, gap);

    const result = await miner.mineBlock();
    expect(result).toMatchObject({importResult: ImportResultKind.IMPORTED_BEST, blockIncludedHeight: 1});
    const block = (await chain.getBlockByNumber(1))!;
    const hashes = block.transactions.map((tx) => bytesToHex(tx.hash()));
    // Carol's nonce 3 cannot execute (her account nonce is 0): skipped.
    expect(hashes.slice(0, -1)).toEqual([dear, dearNext, cheap].map((tx) => bytesToHex(tx.hash())));
    expect(isRemascTransaction(block.transactions.at(-1)!)).toBe(true);
    expect(block.header.paidFees).toBe(21_000n * (5n + 5n + 1n));
    expect(pool.pendingForBlock().map((tx) => bytesToHex(tx.hash()))).toEqual([bytesToHex(gap.hash())]);
  });

  it("move the gas limit toward the target and minimumGasPrice toward the miner's, within the band", async () => {
    const {miner, chain} = await openMiner({minGasPriceInWei: 250n, targetGasLimit: 7_500_000n});
    const gasLimits: bigint[] = [chain.head().header.gasLimit];
    const prices: bigint[] = [chain.head().header.minimumGasPrice];
    for (let i = 0; i < 3; i++) {
      await miner.mineBlock();
      gasLimits.push(chain.head().header.gasLimit);
      prices.push(chain.head().header.minimumGasPrice);
    }
    // Regtest genesis: 10,000,000 and 0; one step of parent / 1024 down, and of max(1, parent / 100) up.
    expect(gasLimits).toEqual([10_000_000n, 9_990_235n, 9_980_479n, 9_970_733n]);
    expect(prices).toEqual([0n, 1n, 2n, 3n]);
  });

  it("set timestamp, difficulty, coinbase and ummRoot as consensus requires", async () => {
    let now = 5_000_000;
    const {miner, chain, options} = await openMiner({}, {now: () => now});
    await miner.mineBlock();
    const first = chain.head().header;
    expect(first.timestamp).toBe(5_000);
    expect(first.coinbase).toEqual(options.coinbase);
    expect(bytesToHex(options.coinbase)).toBe("ec4ddeb4380ad69b3e509baad9f158cdf4e4681d");
    expect(first.ummRoot).toEqual(new Uint8Array(0));
    // The clock stands still: parent + 1.
    await miner.mineBlock();
    const second = chain.head().header;
    expect(second.timestamp).toBe(5_001);
    expect(second.difficulty).toBe(calculateDifficulty(second, first, regtest));
    now += 1_000_000;
    await miner.mineBlock();
    expect(chain.head().header.timestamp).toBe(6_000);
  });

  it("include stored siblings of ancestors as uncles, once", async () => {
    const {miner, chain} = await openMiner();
    const builder = await ChainBuilder.create({
      chainspec: regtest,
      genesis: regtestGenesis,
      difficulty: (h, p) => calculateDifficulty(h, p, regtest),
    });
    await miner.mineBlock();
    const sibling = await builder.buildBlock({timestamp: 77});
    expect(await chain.importBlock(sibling)).toMatchObject({kind: ImportResultKind.IMPORTED_NOT_BEST});

    await miner.mineBlock();
    const withUncle = (await chain.getBlockByNumber(2))!;
    expect(withUncle.uncles.map((u) => u.hash())).toEqual([sibling.hash()]);
    await miner.mineBlock();
    expect((await chain.getBlockByNumber(3))!.uncles).toEqual([]);
  });

  it("answer getWork with the target, the fees and notify once per new parent (docs/protocol/mining-rpc.md §2)", async () => {
    const {miner, chain} = await openMiner();
    const work = await miner.getWork();
    expect(bytesToHex(work.target)).toBe("55".repeat(32));
    expect(work.parentBlockHash).toEqual(chain.genesisHash);
    expect(work.feesPaidToMiner).toBe(0n);
    expect(work.height).toBe(1);
    expect(work.notify).toBe(true);
    expect((await miner.getWork()).notify).toBe(false);
    await miner.submitBitcoinBlock(solvedBlock(work.blockHashForMergedMining, 2n ** 256n / 3n));
    const next = await miner.getWork();
    expect(next.parentBlockHash).toEqual(chain.head().hash);
    expect(next.notify).toBe(true);
  });

  it(`commit to fork-detection data from block ${FORK_DETECTION_MIN_BLOCK} on`, {timeout: 120_000}, async () => {
    const {miner, chain} = await openMiner();
    for (let n = 1; n <= FORK_DETECTION_MIN_BLOCK + 1; n++) await miner.mineBlock();
    const head = chain.head().header;
    expect(head.number).toBe(FORK_DETECTION_MIN_BLOCK + 1);
    expect(readForkDetectionData(head)?.subarray(8)).toEqual(Uint8Array.of(0, 0, 0x01, 0xc2));
  });
});

describe("gas limit and minimumGasPrice (docs/protocol/fees.md §1)", () => {
  const base = {parentGasUsed: 0n, minGasLimit: 3_000_000n, boundDivisor: 1024n, forceTarget: true};

  it("forced: one step of parent / 1024 toward the target, not past it", () => {
    expect(nextGasLimit({...base, parentGasLimit: 6_800_000n, targetGasLimit: 7_000_000n})).toBe(6_806_640n);
    expect(nextGasLimit({...base, parentGasLimit: 6_999_000n, targetGasLimit: 7_000_000n})).toBe(7_000_000n);
    expect(nextGasLimit({...base, parentGasLimit: 7_000_000n, targetGasLimit: 7_000_000n})).toBe(7_000_000n);
    expect(nextGasLimit({...base, parentGasLimit: 3_000_100n, targetGasLimit: 1n})).toBe(3_000_000n);
  });

  it("by usage: parent − step + 1.5 × gasUsed / 1024, clamped to the target and the band", () => {
    const usage = {...base, forceTarget: false, targetGasLimit: 8_000_000n};
    expect(nextGasLimit({...usage, parentGasLimit: 6_800_000n, parentGasUsed: 6_800_000n})).toBe(6_803_320n);
    expect(nextGasLimit({...usage, parentGasLimit: 6_800_000n, parentGasUsed: 0n})).toBe(6_793_360n);
    expect(nextGasLimit({...usage, parentGasLimit: 10_000_000n, targetGasLimit: 7_500_000n})).toBe(9_990_234n);
  });

  it("minimumGasPrice: the target inside the band, else the band's edge toward it", () => {
    expect(nextMinimumGasPrice(0n, 0n)).toBe(0n);
    expect(nextMinimumGasPrice(0n, 10n)).toBe(1n);
    expect(nextMinimumGasPrice(1_000n, 1_005n)).toBe(1_005n);
    expect(nextMinimumGasPrice(1_000n, 2_000n)).toBe(1_010n);
    expect(nextMinimumGasPrice(1_000n, 0n)).toBe(990n);
    expect(nextMinimumGasPrice(1n, 0n)).toBe(0n);
  });
});
