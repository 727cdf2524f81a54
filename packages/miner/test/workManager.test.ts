/** The work manager: a fresh request after new transactions never gets a template begun before them. */
import type {ChainHead} from "@xchain/chain";
import {describe, expect, it} from "vitest";
import type {BlockTemplate} from "../src/template/blockTemplate.ts";
import {WorkCache} from "../src/template/workCache.ts";
import {WorkManager} from "../src/template/workManager.ts";

/** A template that records how many transactions were pending when its build began. */
function fakeTemplate(pendingAtStart: number): BlockTemplate {
  return {
    header: {parentHash: new Uint8Array(32), paidFees: 0n},
    transactions: new Array(pendingAtStart),
    uncles: [],
    hashForMergedMining: new Uint8Array(32),
    target: 1n,
  } as unknown as BlockTemplate;
}

describe("WorkManager", () => {
  it("builds again for current(true) when a build in flight began before markOutdated", async () => {
    let pending = 0;
    let release: () => void = () => undefined;
    let gate: Promise<void> = Promise.resolve();
    const work = new WorkManager(
      async () => {
        const seen = pending;
        await gate;
        return fakeTemplate(seen);
      },
      () => ({}) as ChainHead,
      new WorkCache(4),
    );
    gate = new Promise((resolve) => {
      release = resolve;
    });
    const inFlight = work.current();
    pending = 1;
    work.markOutdated();
    const fresh = work.current(true);
    release();
    await inFlight;
    expect((await fresh).template.transactions.length).toBe(1);
  });
});
