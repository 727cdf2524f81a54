/** Options, bounded collections, the blame for a refused import, and the progress meter. */
import {BlockErrorCode} from "@xchain/chain";
import {HeaderErrorCode} from "@xchain/consensus";
import {MergedMiningErrorCode} from "@xchain/merged-mining";
import {describe, expect, it} from "vitest";
import {BoundedCounter, BoundedSet} from "../src/boundedSet.ts";
import {importFault} from "../src/importFailure.ts";
import {checkSyncOptions, defaultSyncOptions, SyncError, SyncErrorCode} from "../src/index.ts";
import {ProgressMeter} from "../src/progressMeter.ts";

describe("sync options", () => {
  it("accepts the defaults and refuses values beyond the p2p caps or below one", () => {
    expect(checkSyncOptions(defaultSyncOptions)).toEqual(defaultSyncOptions);
    expect(() => checkSyncOptions({...defaultSyncOptions, headersPerRequest: 193})).toThrow(SyncError);
    expect(() => checkSyncOptions({...defaultSyncOptions, bodiesPerRequest: 129})).toThrow(SyncError);
    expect(() => checkSyncOptions({...defaultSyncOptions, parallelBodyRequests: 0})).toThrow(SyncError);
    try {
      checkSyncOptions({...defaultSyncOptions, minBlocksBehind: 1.5});
      expect.unreachable();
    } catch (e) {
      expect((e as SyncError).type).toEqual({
        code: SyncErrorCode.INVALID_OPTIONS,
        option: "minBlocksBehind",
        value: 1.5,
        min: 1,
        max: 1_000_000,
      });
    }
  });
});

describe("bounded collections", () => {
  it("forget the oldest entries beyond their capacity", () => {
    const set = new BoundedSet(3);
    for (const key of ["a", "b", "c", "a", "d"]) set.add(key);
    expect(["a", "b", "c", "d"].map((k) => set.has(k))).toEqual([false, true, true, true]);
    expect(set.size).toBe(3);

    const counter = new BoundedCounter(2);
    expect([counter.increment("x"), counter.increment("x"), counter.increment("y")]).toEqual([1, 2, 1]);
    counter.increment("z");
    expect(counter.size).toBe(2);
    expect(counter.increment("x")).toBe(1);
  });
});

describe("importFault", () => {
  it("blames the body up to the transactions root and the uncle list, the header for header rules, else the block", () => {
    expect(importFault(BlockErrorCode.TRANSACTIONS_ROOT_MISMATCH)).toBe("body");
    expect(importFault(BlockErrorCode.REMASC_MISSING)).toBe("body");
    expect(importFault(HeaderErrorCode.UNCLES_HASH_MISMATCH)).toBe("body");
    expect(importFault(HeaderErrorCode.FORK_DETECTION_DATA_MISMATCH)).toBe("header");
    expect(importFault(MergedMiningErrorCode.MERKLE_PROOF_INVALID)).toBe("header");
    expect(importFault(HeaderErrorCode.UNCLE_ALREADY_INCLUDED)).toBe("block");
    expect(importFault(BlockErrorCode.STATE_ROOT_MISMATCH)).toBe("block");
    expect(importFault("EXECUTION_SOMETHING")).toBe("block");
  });
});

describe("ProgressMeter", () => {
  it("counts imports per second over the last five seconds", () => {
    let now = 0;
    const meter = new ProgressMeter(10, () => now);
    meter.target(50);
    expect(meter.snapshot()).toEqual({startingBlock: 10, currentBlock: 10, highestBlock: 50, blocksPerSecond: 0});
    for (let n = 11; n <= 30; n++) {
      now += 100;
      meter.imported(n);
    }
    // 20 blocks in 2 s.
    expect(meter.snapshot()).toEqual({startingBlock: 10, currentBlock: 30, highestBlock: 50, blocksPerSecond: 10});
    now += 6_000;
    expect(meter.snapshot().blocksPerSecond).toBe(0);
    meter.imported(60);
    expect(meter.snapshot().highestBlock).toBe(60);
  });
});
