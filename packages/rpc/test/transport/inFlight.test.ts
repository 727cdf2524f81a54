/** The running requests of a server: closing aborts them and waits for their work. */
import {describe, expect, it} from "vitest";
import {InFlightRequests} from "../../src/transport/inFlight.ts";

describe("InFlightRequests", () => {
  it("forgets work once it has settled", async () => {
    const requests = new InFlightRequests(1_000);
    const work = Promise.reject(new Error("failed"));
    requests.track(new AbortController(), work);
    expect(requests.size).toBe(1);
    await work.catch(() => undefined);
    await Promise.resolve();
    expect(requests.size).toBe(0);
  });

  it("drain aborts every request with -32011 and resolves when their work has ended", async () => {
    const requests = new InFlightRequests(1_000);
    const controller = new AbortController();
    let ended = false;
    const work = new Promise<void>((resolve) => {
      // A read that notices the abort, then takes a while to finish.
      controller.signal.addEventListener("abort", () =>
        setTimeout(() => {
          ended = true;
          resolve();
        }, 50),
      );
    });
    requests.track(controller, work);
    expect(await requests.drain(5_000)).toBe(true);
    expect(ended).toBe(true);
    expect((controller.signal.reason as {code: number}).code).toBe(-32011);
    expect(requests.size).toBe(0);
  });

  it("gives up after the limit on work that ignores its signal", async () => {
    const requests = new InFlightRequests(1_000);
    requests.track(new AbortController(), new Promise(() => undefined));
    expect(await requests.drain(20)).toBe(false);
    expect(requests.size).toBe(1);
  });
});
