/** The bound on key derivations (docs/protocol/keystore.md §5): slots, an ordered queue, busy past it, abort. */
import {KeystoreBusyError} from "@xchain/rpc";
import {describe, expect, it} from "vitest";
import {DerivationSlots} from "../../src/wallet/derivationSlots.ts";

/** A derivation the test ends by hand. */
function manual() {
  let finish: (value: string) => void = () => {};
  const done = new Promise<string>((resolve) => {
    finish = resolve;
  });
  return {derive: () => done, finish};
}

describe("DerivationSlots", () => {
  it("runs at most `running` at once, then the waiters in order, and refuses past the queue", async () => {
    const slots = new DerivationSlots({running: 1, waiting: 2});
    const [a, b, c] = [manual(), manual(), manual()];
    const started: string[] = [];
    const run = (name: string, work: ReturnType<typeof manual>) =>
      slots.run(() => {
        started.push(name);
        return work.derive();
      });
    const runs = [run("a", a), run("b", b), run("c", c)];
    await expect(slots.run(async () => "d")).rejects.toBeInstanceOf(KeystoreBusyError);
    await expect(slots.run(async () => "d")).rejects.toThrow(
      "keystore busy: 1 key derivations running and 2 waiting (wallet.keyDerivations, wallet.keyDerivationQueue); retry later",
    );
    expect([slots.active, slots.waiting, started]).toEqual([1, 2, ["a"]]);
    a.finish("A");
    await runs[0];
    expect([slots.active, slots.waiting, started]).toEqual([1, 1, ["a", "b"]]);
    b.finish("B");
    c.finish("C");
    expect(await Promise.all(runs)).toEqual(["A", "B", "C"]);
    expect([slots.active, slots.waiting]).toEqual([0, 0]);
  });

  it("lets a waiter whose signal aborts leave the queue with its reason, and starts none aborted", async () => {
    const slots = new DerivationSlots({running: 1, waiting: 2});
    const first = manual();
    const running = slots.run(first.derive);
    const controller = new AbortController();
    let ran = false;
    const waiting = slots.run(async () => {
      ran = true;
      return "never";
    }, controller.signal);
    expect(slots.waiting).toBe(1);
    controller.abort(new Error("timed out"));
    await expect(waiting).rejects.toThrow("timed out");
    expect(slots.waiting).toBe(0);
    await expect(slots.run(async () => "late", controller.signal)).rejects.toThrow("timed out");
    first.finish("done");
    expect(await running).toBe("done");
    expect([ran, slots.active]).toEqual([false, 0]);
  });

  it("frees the slot when a derivation fails", async () => {
    const slots = new DerivationSlots({running: 1, waiting: 0});
    await expect(slots.run(() => Promise.reject(new Error("wrong passphrase")))).rejects.toThrow("wrong passphrase");
    expect(await slots.run(async () => "next")).toBe("next");
  });
});
