/**
 * The requests of a server whose work has not ended yet, answered or not (a timed-out request's
 * work runs on until it notices its signal), and the response memory they share. Their deadlines
 * share one timer, armed for the earliest (docs/rpc.md §8): no timer per request. Closing the server
 * aborts them and waits, so that no read outlives the database (node shutdown order).
 */
import {RpcError} from "../jsonrpc/errors.ts";
import {ResponseMemory} from "../jsonrpc/responseBudget.ts";
import type {RequestControl} from "./requestControl.ts";

/** Node's timers run on a millisecond clock: a deadline less than this far ahead counts as passed. */
const TIMER_RESOLUTION_MS = 1;

/** Running requests of one server. */
export class InFlightRequests {
  private readonly running = new Map<RequestControl, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  /** The bytes of every response being built (`maxInFlightResponseBytes`). */
  readonly memory: ResponseMemory;

  constructor(maxInFlightResponseBytes: number) {
    this.memory = new ResponseMemory(maxInFlightResponseBytes);
  }

  /** Requests whose work has not ended. */
  get size(): number {
    return this.running.size;
  }

  /** Keeps `work` until it settles; `control` expires at its deadline and is aborted when the server closes. */
  track(control: RequestControl, work: Promise<unknown>): void {
    const forget = () => void this.running.delete(control);
    this.running.set(control, work.then(forget, forget));
    if (control.deadline < this.timerAt) this.arm(control.deadline);
  }

  /**
   * Aborts every running request and resolves once all have ended, or after `limitMs` whatever
   * runs still (then false): a handler that ignores its signal cannot hold the shutdown forever.
   */
  async drain(limitMs: number): Promise<boolean> {
    for (const control of this.running.keys()) control.abort(RpcError.timeout());
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), limitMs);
    });
    try {
      return await Promise.race([Promise.all(this.running.values()).then(() => true as const), expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  private arm(at: number): void {
    clearTimeout(this.timer);
    this.timerAt = at;
    // Unreferenced: a running request keeps the process alive by its socket or its work, not by this timer.
    this.timer = setTimeout(() => this.expire(), Math.max(0, at - performance.now())).unref();
  }

  /** Expires the requests past their deadline and arms the timer for the next one. */
  private expire(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = performance.now() + TIMER_RESOLUTION_MS;
    let next = Number.POSITIVE_INFINITY;
    for (const control of this.running.keys()) {
      if (control.expired) continue;
      if (control.deadline <= now) control.expire(RpcError.timeout());
      else next = Math.min(next, control.deadline);
    }
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  }
}
