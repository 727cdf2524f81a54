/** The running requests of a server: deadlines expire on one timer, closing aborts them and waits for their work. */
import {describe, expect, it, vi} from "vitest";
import {ConnectionRequests} from "../../src/transport/connectionRequests.ts";
import {InFlightRequests} from "../../src/transport/inFlight.ts";
import {RequestControl} from "../../src/transport/requestControl.ts";

const FAR = () => performance.now() + 60_000;

describe("InFlightRequests", () => {
  it("forgets work once it has settled", async () => {
    const requests = new InFlightRequests(1_000);
    const work = Promise.reject(new Error("failed"));
    requests.track(new RequestControl(FAR()), work);
    expect(requests.size).toBe(1);
    await work.catch(() => undefined);
    await Promise.resolve();
    expect(requests.size).toBe(0);
  });

  it("drain aborts every request with -32011 and resolves when their work has ended", async () => {
    const requests = new InFlightRequests(1_000);
    const control = new RequestControl(FAR());
    let ended = false;
    const work = new Promise<void>((resolve) => {
      // A read that notices the abort, then takes a while to finish.
      control.signal.addEventListener("abort", () =>
        setTimeout(() => {
          ended = true;
          resolve();
        }, 50),
      );
    });
    requests.track(control, work);
    expect(await requests.drain(5_000)).toBe(true);
    expect(ended).toBe(true);
    expect((control.signal.reason as {code: number}).code).toBe(-32011);
    expect(requests.size).toBe(0);
  });

  it("gives up after the limit on work that ignores its signal", async () => {
    const requests = new InFlightRequests(1_000);
    requests.track(new RequestControl(FAR()), new Promise(() => undefined));
    expect(await requests.drain(20)).toBe(false);
    expect(requests.size).toBe(1);
  });

  it("expires each request at its own deadline, earliest first, on one timer", () => {
    // On a fake clock (timers and performance.now): the order and the deadlines, whatever the load.
    vi.useFakeTimers({toFake: ["setTimeout", "clearTimeout", "performance"]});
    try {
      const requests = new InFlightRequests(1_000);
      const started = performance.now();
      const expired: string[] = [];
      const controls = {
        late: new RequestControl(started + 80),
        early: new RequestControl(started + 20),
        never: new RequestControl(FAR()),
      };
      for (const [name, control] of Object.entries(controls)) {
        control.onTimeout = () => expired.push(name);
        requests.track(control, new Promise(() => undefined));
      }
      // The timer's resolution is 1 ms: a deadline within it of the tick expires with it.
      vi.advanceTimersByTime(18);
      expect(expired).toEqual([]);
      vi.advanceTimersByTime(2);
      expect(expired).toEqual(["early"]);
      vi.advanceTimersByTime(58);
      expect(expired).toEqual(["early"]);
      vi.advanceTimersByTime(2);
      expect(expired).toEqual(["early", "late"]);
      expect(controls.late.signal.aborted).toBe(true);
      expect(controls.never.aborted).toBe(false);
      expect(vi.getTimerCount()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("RequestControl and ConnectionRequests", () => {
  it("makes the signal on demand, aborted already when the request was", () => {
    const control = new RequestControl(FAR());
    const connection = new ConnectionRequests();
    connection.add(control);
    connection.close();
    expect(control.aborted).toBe(true);
    expect(control.expired).toBe(false);
    expect((control.signal.reason as {code: number}).code).toBe(-32011);
  });

  it("aborts a request that arrives on a closed connection, and forgets answered ones", () => {
    const connection = new ConnectionRequests();
    const answered = new RequestControl(FAR());
    connection.add(answered);
    connection.delete(answered);
    connection.close();
    expect(answered.aborted).toBe(false);
    const late = new RequestControl(FAR());
    connection.add(late);
    expect(late.aborted).toBe(true);
  });
});
