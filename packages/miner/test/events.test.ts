/**
 * `Miner.events` (`MinerEvents`): work served, external solutions with their outcome (imported,
 * refused, failed on a fault of the node) and blocks the built-in miner mined; each told once, with
 * what the caller got back.
 */
import {ImportResultKind} from "@xchain/chain";
import {DatabaseError} from "@xchain/db";
import {bigIntToFixedBytes, bytesToBigInt, subscribe} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {ethWorkPowValue, type Miner, MinerError, MinerErrorCode, type SubmissionEvent} from "../src/index.ts";
import {cows, FillingStore, openMiner, solvedBlock, transfer, waitFor} from "./helpers.ts";

const REGTEST_TARGET = 2n ** 256n / 3n;

/** Every event the miner tells, in order, as [name, payload]. */
function record(miner: Miner): [string, unknown][] {
  const told: [string, unknown][] = [];
  subscribe(miner.events, {
    workServed: (e) => void told.push(["workServed", e]),
    submission: (e) => void told.push(["submission", e]),
    blockMined: (e) => void told.push(["blockMined", e]),
  });
  return told;
}

/** The first nonce whose eth_getWork pow value `accept`s, as eth_submitWork's 8 bytes. */
function ethNonce(midstate: Uint8Array, tail: Uint8Array, accept: (pow: bigint) => boolean): Uint8Array {
  for (let nonce = 0; ; nonce++) {
    if (accept(ethWorkPowValue(midstate, tail, nonce))) return bigIntToFixedBytes(BigInt(nonce), 8);
  }
}

describe("the miner's events", () => {
  it("tell work served by mnr_getWork and eth_getWork, not work refused", async () => {
    let reason: string | undefined = "no peer yet";
    const {miner} = await openMiner({}, {notSyncedReason: () => reason});
    const told = record(miner);
    await expect(miner.getWork()).rejects.toThrow(MinerError);
    await expect(miner.getEthWork()).rejects.toThrow(MinerError);
    expect(told).toEqual([]);
    reason = undefined;
    await miner.getWork();
    await miner.getEthWork();
    expect(told).toEqual([
      ["workServed", {method: "mnr_getWork"}],
      ["workServed", {method: "eth_getWork"}],
    ]);
  });

  it("tell an mnr_* solution imported with the result its caller gets, and one refused with its MinerError", async () => {
    const {miner} = await openMiner();
    const work = await miner.getWork();
    const told = record(miner);
    const block = solvedBlock(work.blockHashForMergedMining, REGTEST_TARGET);
    const result = await miner.submitBitcoinBlock(block);
    expect(result.importResult).toBe(ImportResultKind.IMPORTED_BEST);
    const unknownWork = await miner.submitBitcoinBlock(solvedBlock(new Uint8Array(32).fill(7), REGTEST_TARGET)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(unknownWork).toBeInstanceOf(MinerError);
    expect(told).toEqual([
      ["submission", {method: "mnr_submitBitcoinBlock", outcome: {kind: "imported", result}}],
      [
        "submission",
        {
          method: "mnr_submitBitcoinBlock",
          outcome: {kind: "refused", reason: (unknownWork as MinerError).message, error: unknownWork},
        },
      ],
    ]);
    expect((unknownWork as MinerError).code).toBe(MinerErrorCode.WORK_NOT_FOUND);
  });

  it("tell bad Bitcoin data as refused, with the method it came by", async () => {
    const {miner} = await openMiner();
    const told = record(miner);
    await expect(miner.submitBitcoinBlockPartialMerkle(new Uint8Array(3), new Uint8Array(0), [], 1)).rejects.toThrow(
      MinerError,
    );
    const [[, event]] = told as [[string, SubmissionEvent]];
    expect(event.method).toBe("mnr_submitBitcoinBlockPartialMerkle");
    expect(event.outcome.kind).toBe("refused");
    expect(event.outcome.kind === "refused" && event.outcome.error?.code).toBe(MinerErrorCode.BAD_BITCOIN_DATA);
  });

  it("tell a solution that failed on a fault of the node (a full disk) as failed, with the error thrown", async () => {
    const store = new FillingStore();
    const {miner} = await openMiner({}, {store});
    const work = await miner.getWork();
    const told = record(miner);
    store.full = true;
    const thrown = await miner.submitBitcoinBlock(solvedBlock(work.blockHashForMergedMining, REGTEST_TARGET)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(thrown).toBeInstanceOf(DatabaseError);
    expect(told).toEqual([
      ["submission", {method: "mnr_submitBitcoinBlock", outcome: {kind: "failed", error: thrown}}],
    ]);
  });

  it("tell eth_submitWork's solutions: imported, and refused by its own checks without an error", async () => {
    const {miner, chain} = await openMiner();
    const [midstate, tail, boundary] = await miner.getEthWork();
    const target = bytesToBigInt(boundary);
    const told = record(miner);
    expect(
      await miner.submitEthWork(
        ethNonce(midstate, tail, (pow) => pow > target),
        midstate,
        midstate,
      ),
    ).toBe(false);
    expect(
      await miner.submitEthWork(
        ethNonce(midstate, tail, (pow) => pow <= target),
        midstate,
        midstate,
      ),
    ).toBe(true);
    expect(told).toEqual([
      [
        "submission",
        {method: "eth_submitWork", outcome: {kind: "refused", reason: "the solution is above the target"}},
      ],
      [
        "submission",
        {
          method: "eth_submitWork",
          outcome: {
            kind: "imported",
            result: {
              importResult: ImportResultKind.IMPORTED_BEST,
              blockHash: chain.head().hash,
              blockIncludedHeight: 1,
            },
          },
        },
      ],
    ]);
  });

  it("tell each block the built-in miner mines (evm_mine and autoMine), and no submission for them", async () => {
    const {miner, chain, pool} = await openMiner({autoMine: true});
    const told = record(miner);
    const mined = await miner.mineBlock();
    expect(told).toEqual([["blockMined", {result: mined}]]);
    miner.startMining();
    pool.add(transfer(cows[0]!, {nonce: 0n}));
    await waitFor(() => chain.head().number === 2);
    expect(told).toHaveLength(2);
    expect(told[1]).toEqual([
      "blockMined",
      {result: {importResult: ImportResultKind.IMPORTED_BEST, blockHash: chain.head().hash, blockIncludedHeight: 2}},
    ]);
  });
});
