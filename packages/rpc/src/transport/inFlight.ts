/**
 * The requests of a server whose work has not ended yet, answered or not (a timed-out request's
 * work runs on until it notices its signal), and the response memory they share. Closing the server
 * aborts them and waits, so that no read outlives the database (node shutdown order).
 */
import {RpcError} from "../jsonrpc/errors.ts";
import {ResponseMemory} from "../jsonrpc/responseBudget.ts";

/** Running requests of one server. */
export class InFlightRequests {
  private readonly running = new Map<Promise<void>, AbortController>();
  /** The bytes of every response being built (`maxInFlightResponseBytes`). */
  readonly memory: ResponseMemory;

  constructor(maxInFlightResponseBytes: number) {
    this.memory = new ResponseMemory(maxInFlightResponseBytes);
  }

  /** Requests whose work has not ended. */
  get size(): number {
    return this.running.size;
  }

  /** Keeps `work` until it settles; `controller` is aborted when the server closes. */
  track(controller: AbortController, work: Promise<unknown>): void {
    const done: Promise<void> = work.then(
      () => void this.running.delete(done),
      () => void this.running.delete(done),
    );
    this.running.set(done, controller);
  }

  /**
   * Aborts every running request and resolves once all have ended, or after `limitMs` whatever
   * runs still (then false): a handler that ignores its signal cannot hold the shutdown forever.
   */
  async drain(limitMs: number): Promise<boolean> {
    for (const controller of this.running.values()) controller.abort(RpcError.timeout());
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), limitMs);
    });
    try {
      return await Promise.race([Promise.all(this.running.keys()).then(() => true as const), expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}
