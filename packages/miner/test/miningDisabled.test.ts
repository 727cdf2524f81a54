/**
 * A node that does not mine (`miner.server.enabled = false`, a follower: docs/operations.md §10) refuses
 * work, solutions and blocks alike with MINING_DISABLED, as rskj serves nothing with its miner server
 * off; a solution of a template whose parent's state has been pruned since is refused typed
 * (the chain's PARENT_STATE_PRUNED).
 */
import {describe, expect, it} from "vitest";
import {defaultMinerOptions, MinerError, MinerErrorCode, type SubmissionEvent} from "../src/index.ts";
import {openMiner, regtest, solvedBlock} from "./helpers.ts";

const DISABLED = {code: MinerErrorCode.MINING_DISABLED};

/** The typed error `work` fails with (it must fail). */
async function failure(work: Promise<unknown> | (() => unknown)): Promise<MinerError> {
  try {
    await (typeof work === "function" ? work() : work);
  } catch (e) {
    expect(e).toBeInstanceOf(MinerError);
    return e as MinerError;
  }
  throw new Error("did not fail");
}

describe("mining disabled (miner.server.enabled = false)", () => {
  it("refuses work, solutions, evm_mine and the built-in miner with MINING_DISABLED, and mines nothing", async () => {
    const {miner, chain} = await openMiner({server: {enabled: false}});
    const submissions: SubmissionEvent[] = [];
    miner.events.on("submission", (event) => submissions.push(event));

    expect((await failure(miner.getWork())).type).toEqual(DISABLED);
    expect((await failure(miner.getEthWork())).type).toEqual(DISABLED);
    const block = solvedBlock(new Uint8Array(32), 2n ** 256n / 3n);
    expect((await failure(miner.submitBitcoinBlock(block))).type).toEqual(DISABLED);
    const none = new Uint8Array(32);
    expect((await failure(miner.submitEthWork(new Uint8Array(8), none, none))).type).toEqual(DISABLED);
    const evmMine = await failure(miner.mineBlock());
    expect(evmMine.type).toEqual(DISABLED);
    expect(evmMine.message).toBe(
      "mining is disabled on this node (miner.server.enabled = false): it serves no merged-mining work, " +
        "takes no solution and mines no block; send miners and mining requests to a mining node",
    );
    expect((await failure(() => miner.startMining())).type).toEqual(DISABLED);
    expect((await failure(miner.devControls().mining.mine(3, 0))).type).toEqual(DISABLED);

    expect(miner.isMining()).toBe(false);
    expect(chain.head().number).toBe(0);
    // The metrics count the refused submission by its code.
    expect(submissions.map((s) => [s.method, s.outcome.kind])).toEqual([["mnr_submitBitcoinBlock", "refused"]]);
  });

  it("refuses to start the built-in miner without the work server", async () => {
    const options = {...defaultMinerOptions(regtest), enabled: true, server: {enabled: false}};
    expect((await failure(() => openMiner(options))).type).toEqual(DISABLED);
  });

  it("refuses typed a solution of work whose parent's state was pruned since", async () => {
    const {miner, chain} = await openMiner({}, {retention: {mode: "pruned", retainBlocks: 2}});
    const work = await miner.getWork();
    for (let i = 0; i < 3; i++) await miner.mineBlock();
    await chain.collectorIdle();

    const refused = await failure(
      miner.submitBitcoinBlock(solvedBlock(work.blockHashForMergedMining, 2n ** 256n / 3n)),
    );
    expect(refused.type).toMatchObject({code: MinerErrorCode.INVALID_BLOCK, reason: "STATE_PRUNED"});
    expect(chain.head().number).toBe(3);
  });
});
