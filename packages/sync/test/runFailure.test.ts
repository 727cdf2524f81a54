/** RunFailure: guards that end with the run's error, and keep nothing of a settled guard reachable. */
import {setFlagsFromString} from "node:v8";
import {runInNewContext} from "node:vm";
import {describe, expect, it} from "vitest";
import {RunFailure} from "../src/runFailure.ts";

/** The engine's full garbage collection (exposed for this test only). */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** Guards a promise of a fresh object through `failure`, awaits it, and returns a weak reference to the object. */
async function guardedValue(failure: RunFailure): Promise<WeakRef<object>> {
  const value = {body: new Uint8Array(1024)};
  const ref = new WeakRef(value);
  await failure.guard(Promise.resolve(value));
  return ref;
}

describe("RunFailure", () => {
  it("passes values and errors through, rejects pending and later guards with the first error", async () => {
    const failure = new RunFailure();
    await expect(failure.guard(Promise.resolve(7))).resolves.toBe(7);
    await expect(failure.guard(Promise.reject(new Error("request failed")))).rejects.toThrow("request failed");
    expect(failure.pending).toBe(0);

    const never = failure.guard(new Promise<number>(() => undefined));
    expect(failure.pending).toBe(1);
    failure.fail(new Error("peer gone"));
    failure.fail(new Error("stopped"));
    await expect(never).rejects.toThrow("peer gone");
    expect(failure.pending).toBe(0);
    expect(failure.error?.message).toBe("peer gone");
    await expect(failure.guard(Promise.resolve(1))).rejects.toThrow("peer gone");
  });

  it("keeps no settled guard's value reachable while the run goes on (Promise.race with the failure did)", async () => {
    const failure = new RunFailure();
    const refs: WeakRef<object>[] = [];
    for (let i = 0; i < 20; i++) refs.push(await guardedValue(failure));
    // Out of the microtasks that settled the guards, then a full collection.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
    expect(failure.pending).toBe(0);
  });
});
