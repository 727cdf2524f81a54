/** `InclusionWaiters`: who eth_sendRawTransaction's answer waits for under instant mining, and its bounds. */
import {describe, expect, it, vi} from "vitest";
import {InclusionWaiters} from "../src/instant/inclusionWaiters.ts";
import {cows, settlesAtOnce, transfer} from "./helpers.ts";

describe("InclusionWaiters", () => {
  it("holds an expected transaction's wait until released, and no longer than the bound", async () => {
    const waiters = new InclusionWaiters(150, 4);
    const tx = transfer(cows[0]!, {nonce: 0n});
    waiters.expect(tx);
    vi.useFakeTimers();
    try {
      let answered = false;
      const bounded = waiters.wait(tx.hash()).then(() => {
        answered = true;
      });
      await vi.advanceTimersByTimeAsync(149);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(answered).toBe(true);
      await bounded;
    } finally {
      vi.useRealTimers();
    }

    const next = transfer(cows[0]!, {nonce: 1n});
    waiters.expect(next);
    const waiting = waiters.wait(next.hash());
    waiters.releaseAll();
    expect(await settlesAtOnce(waiting)).toBe(true);
  });

  it("holds at most maxHeld answers at once: a burst is answered at once", async () => {
    const waiters = new InclusionWaiters(10_000, 1);
    const [a, b] = [transfer(cows[0]!, {nonce: 0n}), transfer(cows[1]!, {nonce: 0n})];
    waiters.expect(a);
    waiters.expect(b);
    const held = waiters.wait(a.hash());
    expect(await settlesAtOnce(held)).toBe(false);
    expect(await settlesAtOnce(waiters.wait(b.hash()))).toBe(true);
    waiters.releaseAll();
    await held;
  });
});
