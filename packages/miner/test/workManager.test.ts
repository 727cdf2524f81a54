/**
 * The current work's rebuilds: `current(true)` answers a template that holds the transactions
 * pending when it was asked, even while a build that started before them is under way.
 */
import type {ChainHead} from "@xchain/chain";
import {describe, expect, it} from "vitest";
import type {BlockTemplate} from "../src/template/blockTemplate.ts";
import {WorkCache} from "../src/template/workCache.ts";
import {WorkManager} from "../src/template/workManager.ts";

/** Builds whose completion the test controls; each template is numbered in the order its build started. */
function controlledBuilds() {
  const started: {finish: () => void}[] = [];
  const build = (_head: ChainHead): Promise<BlockTemplate> => {
    const n = started.length + 1;
    const template = {
      header: {parentHash: new Uint8Array(32), paidFees: 0n},
      hashForMergedMining: Uint8Array.of(n),
      n,
    } as unknown as BlockTemplate;
    return new Promise((resolve) => started.push({finish: () => resolve(template)}));
  };
  return {started, build};
}

const numberOf = (template: BlockTemplate) => (template as unknown as {n: number}).n;

/** Lets the pending promise callbacks run (the builds here finish only when the test says). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("WorkManager", () => {
  it("current(true) does not answer a build that started before the newest pending transactions", async () => {
    const {started, build} = controlledBuilds();
    const work = new WorkManager(build, () => ({}) as ChainHead, new WorkCache(4));
    // A new head: the template is rebuilt in the background (build 1).
    const background = work.current();
    await turn();
    expect(started).toHaveLength(1);
    // A transaction becomes pending while build 1 runs; the miner asks for fresh work.
    work.markOutdated();
    const fresh = work.current(true);
    started[0]!.finish();
    await turn();
    expect(numberOf((await background).template)).toBe(1);
    // Build 1 did not see the transaction: build 2 does, and that is the answer.
    expect(started).toHaveLength(2);
    started[1]!.finish();
    expect(numberOf((await fresh).template)).toBe(2);
  });

  it("current(true) takes the build under way when nothing became pending after it started", async () => {
    const {started, build} = controlledBuilds();
    const work = new WorkManager(build, () => ({}) as ChainHead, new WorkCache(4));
    work.markOutdated();
    const first = work.current(true);
    await turn();
    const second = work.current(true);
    started[0]!.finish();
    expect(numberOf((await first).template)).toBe(1);
    expect(numberOf((await second).template)).toBe(1);
    expect(started).toHaveLength(1);
  });
});
