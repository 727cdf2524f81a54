/**
 * A block the node seals itself is stamped when it is mined, not when its template was built: work built
 * ahead (for a miner's poll, or by a drain that found nothing to mine) and sealed seconds later carried
 * its build time, about 1.5 s in the past under regtest's 1 s interval. The time controls still set the
 * timestamp, and work served to an external miner is not restamped (its timestamp is in the hash mined).
 */
import {sealedHashForMergedMining} from "@xchain/merged-mining";
import type {BlockHeader} from "@xchain/primitives";
import {describe, expect, it} from "vitest";
import {openMiner, regtest} from "./helpers.ts";

/** What the coinbase of `header`'s proof commits to: the work its template was served as. */
const workOf = (header: BlockHeader) => sealedHashForMergedMining(header, regtest.isActive("RSKIP110", header.number));

/** A clock the test moves by hand, in milliseconds. */
function handClock(startMs: number): {now: () => number; advance: (ms: number) => void} {
  let ms = startMs;
  return {
    now: () => ms,
    advance: (by) => {
      ms += by;
    },
  };
}

describe("the timestamp of a block the node mines", () => {
  it("is the clock's when mining starts, though the template was built seconds before", async () => {
    const clock = handClock(2_000_000_000_000);
    const {miner, chain} = await openMiner({}, {now: clock.now});
    const served = await miner.getWork();
    clock.advance(5_000);
    const atRequest = Math.floor(clock.now() / 1000);
    await miner.mineBlock();
    expect(chain.head().header.timestamp).toBeGreaterThanOrEqual(atRequest);
    // A template built beside the one served (which stays in the cache as it was).
    expect(workOf(chain.head().header)).not.toEqual(served.blockHashForMergedMining);
  });

  it("keeps a template still current: no rebuild within the same second", async () => {
    const clock = handClock(2_000_000_000_000);
    const {miner, chain} = await openMiner({}, {now: clock.now});
    const served = await miner.getWork();
    clock.advance(400);
    await miner.mineBlock();
    expect(workOf(chain.head().header)).toEqual(served.blockHashForMergedMining);
    expect(chain.head().header.timestamp).toBe(2_000_000_000);
  });

  it("still follows the time controls: a timestamp interval wins over the wall clock", async () => {
    const clock = handClock(2_000_000_000_000);
    const {miner, chain} = await openMiner({}, {now: clock.now});
    miner.devControls().time.setBlockTimestampInterval(100);
    const parent = chain.head().header.timestamp;
    await miner.getWork();
    clock.advance(5_000);
    await miner.mineBlock();
    expect(chain.head().header.timestamp).toBe(parent + 100);
  });
});
