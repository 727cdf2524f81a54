/** `InclusionWaiters`: who eth_sendRawTransaction's answer waits for under instant mining, and its bounds. */
import {describe, expect, it} from "vitest";
import {InclusionWaiters} from "../src/instant/inclusionWaiters.ts";
import {cows, transfer} from "./helpers.ts";

const elapsed = async (work: Promise<void>): Promise<number> => {
  const started = Date.now();
  await work;
  return Date.now() - started;
};

describe("InclusionWaiters", () => {
  it("holds an expected transaction's wait until released, and no longer than the bound", async () => {
    const waiters = new InclusionWaiters(150, 4);
    const tx = transfer(cows[0]!, {nonce: 0n});
    waiters.expect(tx);
    expect(await elapsed(waiters.wait(tx.hash()))).toBeGreaterThanOrEqual(140);

    const next = transfer(cows[0]!, {nonce: 1n});
    waiters.expect(next);
    const waiting = waiters.wait(next.hash());
    waiters.releaseAll();
    expect(await elapsed(waiting)).toBeLessThan(100);
  });

  it("holds at most maxHeld answers at once: a burst is answered at once", async () => {
    const waiters = new InclusionWaiters(10_000, 1);
    const [a, b] = [transfer(cows[0]!, {nonce: 0n}), transfer(cows[1]!, {nonce: 0n})];
    waiters.expect(a);
    waiters.expect(b);
    const held = waiters.wait(a.hash());
    expect(await elapsed(waiters.wait(b.hash()))).toBeLessThan(50);
    waiters.releaseAll();
    await held;
  });
});
