/**
 * `mnr_submitBitcoinBlock*` (docs/protocol/mining-rpc.md §3): the three forms, unknown work, proof of work,
 * segwit, bad data, rate limit.
 */
import {ImportResultKind} from "@xchain/chain";
import {
  bitcoinPowValue,
  bitcoinTxid,
  buildFakeBitcoinBlock,
  coinbaseMerkleBranch,
  grindNonce,
  MergedMiningErrorCode,
  NONCE_OFFSET,
  parseBitcoinTransaction,
  serializeBitcoinBlock,
} from "@xchain/merged-mining";
import {concatBytes, hexToBytes, reverseBytes, sha256d, writeUint32LE} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {MinerErrorCode} from "../src/index.ts";
import {openMiner, solve, solvedBlock} from "./helpers.ts";

const REGTEST_TARGET = 2n ** 256n / 3n;
// Two more transactions, so that the coinbase has a merkle branch.
const OTHER_TXS = ["01000000000000000000", "02000000000000000000"].map(hexToBytes);

/** A three-transaction Bitcoin block for the work, its nonce ground: header, coinbase and txids (internal order). */
function solveWithTransactions(hashForMergedMining: Uint8Array, coinbase?: Uint8Array) {
  const fake = buildFakeBitcoinBlock({hashForMergedMining, time: 1});
  const cb = coinbase ?? fake.coinbase;
  const txids = [parseBitcoinTransaction(cb), ...OTHER_TXS.map(parseBitcoinTransaction)].map(bitcoinTxid);
  let level = txids;
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(sha256d(concatBytes(level[i]!, level[i + 1] ?? level[i]!)));
    level = next;
  }
  const header = grindNonce({...fake.header, merkleRoot: level[0]!}, REGTEST_TARGET)!;
  return {header, coinbase: cb, txids, block: serializeBitcoinBlock(header, [cb, ...OTHER_TXS])};
}

/** The fake coinbase in segwit serialization: marker and flag, one 32-byte witness item. */
function withWitness(legacy: Uint8Array): Uint8Array {
  return concatBytes(
    legacy.subarray(0, 4),
    Uint8Array.of(0, 1),
    legacy.subarray(4, legacy.length - 4),
    Uint8Array.of(1, 32),
    new Uint8Array(32),
    legacy.subarray(legacy.length - 4),
  );
}

describe("mnr submissions", () => {
  it("mnr_submitBitcoinBlock: a full Bitcoin block imports the block (IMPORTED_BEST)", async () => {
    const {miner, chain, importExecutions} = await openMiner();
    const work = await miner.getWork();
    const {block} = solveWithTransactions(work.blockHashForMergedMining);
    const result = await miner.submitBitcoinBlock(block);
    // The block of this node's own work is executed once, when its template was assembled.
    expect(importExecutions()).toBe(0);
    expect(result).toEqual({
      importResult: ImportResultKind.IMPORTED_BEST,
      blockHash: chain.head().hash,
      blockIncludedHeight: 1,
    });
    expect(chain.head().header.mergedMining?.merkleProof.length).toBe(64);
    // The same solution again: the block exists.
    expect((await miner.submitBitcoinBlock(block)).importResult).toBe(ImportResultKind.EXIST);
  });

  it("mnr_submitBitcoinBlockTransactions: header, coinbase and every txid in display order", async () => {
    const {miner, chain} = await openMiner();
    const work = await miner.getWork();
    const {header, coinbase, txids} = solveWithTransactions(work.blockHashForMergedMining);
    const result = await miner.submitBitcoinBlockTransactions(header, coinbase, txids.map(reverseBytes));
    expect(result).toMatchObject({importResult: ImportResultKind.IMPORTED_BEST, blockIncludedHeight: 1});
    expect(chain.head().number).toBe(1);
  });

  it("mnr_submitBitcoinBlockPartialMerkle: header, coinbase and the merkle branch in internal order", async () => {
    const {miner, chain} = await openMiner();
    const work = await miner.getWork();
    const {header, coinbase, txids} = solveWithTransactions(work.blockHashForMergedMining);
    const branch = coinbaseMerkleBranch(txids);
    const result = await miner.submitBitcoinBlockPartialMerkle(header, coinbase, branch, txids.length);
    expect(result).toMatchObject({importResult: ImportResultKind.IMPORTED_BEST, blockIncludedHeight: 1});
    expect(chain.head().number).toBe(1);
    await expect(miner.submitBitcoinBlockPartialMerkle(header, coinbase, [], 1)).rejects.toMatchObject({
      type: {code: MinerErrorCode.BAD_BITCOIN_DATA},
    });
  });

  it("accepts a segwit coinbase by stripping its witness (docs/protocol/README.md §2)", async () => {
    const {miner} = await openMiner();
    const work = await miner.getWork();
    const legacy = buildFakeBitcoinBlock({hashForMergedMining: work.blockHashForMergedMining, time: 1}).coinbase;
    const segwit = withWitness(legacy);
    expect(parseBitcoinTransaction(segwit).hasWitness).toBe(true);
    const {block} = solveWithTransactions(work.blockHashForMergedMining, segwit);
    expect((await miner.submitBitcoinBlock(block)).importResult).toBe(ImportResultKind.IMPORTED_BEST);

    const next = await miner.getWork();
    const solved = solveWithTransactions(next.blockHashForMergedMining);
    const result = await miner.submitBitcoinBlockTransactions(
      solved.header,
      withWitness(solved.coinbase),
      solved.txids.map(reverseBytes),
    );
    expect(result).toMatchObject({importResult: ImportResultKind.IMPORTED_BEST, blockIncludedHeight: 2});
  });

  it("unknown work, or a coinbase without the tag, is WORK_NOT_FOUND", async () => {
    const {miner} = await openMiner();
    await miner.getWork();
    await expect(
      miner.submitBitcoinBlock(solvedBlock(new Uint8Array(32).fill(7), REGTEST_TARGET)),
    ).rejects.toMatchObject({type: {code: MinerErrorCode.WORK_NOT_FOUND, hash: "07".repeat(32)}});
    const untagged = serializeBitcoinBlock(new Uint8Array(80), [OTHER_TXS[0]!]);
    await expect(miner.submitBitcoinBlock(untagged)).rejects.toMatchObject({
      type: {code: MinerErrorCode.WORK_NOT_FOUND},
      message: expect.stringContaining("no RSKBLOCK: tag"),
    });
  });

  it("a nonce above the target is INVALID_BLOCK with MM_POW_ABOVE_TARGET", async () => {
    const {miner, chain} = await openMiner();
    const work = await miner.getWork();
    const {header, coinbase} = solve(work.blockHashForMergedMining, REGTEST_TARGET);
    // About two nonces in three miss regtest's target of 2^256 / 3: find one.
    const bad = header.slice();
    for (let nonce = 0; bitcoinPowValue(bad) <= REGTEST_TARGET; nonce++) writeUint32LE(bad, NONCE_OFFSET, nonce);
    const error = await miner.submitBitcoinBlock(serializeBitcoinBlock(bad, [coinbase])).catch((e) => e);
    expect(error.type).toMatchObject({
      code: MinerErrorCode.INVALID_BLOCK,
      reason: MergedMiningErrorCode.POW_ABOVE_TARGET,
    });
    expect(error.message).toMatch(/^Invalid block supplied by miner: MM_POW_ABOVE_TARGET/);
    expect(chain.head().number).toBe(0);
  });

  it("malformed Bitcoin data is BAD_BITCOIN_DATA", async () => {
    const {miner} = await openMiner();
    await expect(miner.submitBitcoinBlock(Uint8Array.of(1, 2, 3))).rejects.toMatchObject({
      type: {code: MinerErrorCode.BAD_BITCOIN_DATA},
    });
    const work = await miner.getWork();
    const {coinbase} = solve(work.blockHashForMergedMining, REGTEST_TARGET);
    await expect(
      miner.submitBitcoinBlockTransactions(new Uint8Array(79), coinbase, [new Uint8Array(32)]),
    ).rejects.toMatchObject({
      type: {code: MinerErrorCode.BAD_BITCOIN_DATA, reason: expect.stringContaining("MM_BTC_HEADER_INVALID")},
    });
    await expect(
      miner.submitBitcoinBlockTransactions(new Uint8Array(80), coinbase, [new Uint8Array(31)]),
    ).rejects.toMatchObject({
      type: {code: MinerErrorCode.BAD_BITCOIN_DATA},
    });
  });

  it("limits the rate of submissions when configured (testnet: one per 10 s)", async () => {
    let now = 1_000_000;
    const {miner} = await openMiner({submissionRateLimitMs: 10_000}, {now: () => now});
    const first = await miner.getWork();
    await miner.submitBitcoinBlock(solvedBlock(first.blockHashForMergedMining, REGTEST_TARGET));
    const second = await miner.getWork();
    const block = solvedBlock(second.blockHashForMergedMining, REGTEST_TARGET);
    await expect(miner.submitBitcoinBlock(block)).rejects.toMatchObject({
      type: {code: MinerErrorCode.RATE_LIMITED, retryAfterMs: 10_000},
    });
    now += 10_000;
    expect((await miner.submitBitcoinBlock(block)).blockIncludedHeight).toBe(2);
  });
});
