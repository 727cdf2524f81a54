/**
 * One request's cancellation (docs/rpc.md §8): its deadline, and the abort signal its handlers see,
 * made only when a handler first asks for it, so that a request that never looks costs no
 * `AbortController`. The deadline is enforced by `InFlightRequests`, the client's disconnect by
 * `ConnectionRequests`.
 */
import type {RpcError} from "../jsonrpc/errors.ts";

/** Cancellation of one body (a request or a whole batch). */
export class RequestControl {
  private controller: AbortController | undefined;
  private reason: RpcError | undefined;
  private timedOut = false;
  /** Called once, when the deadline passes: the transport answers -32011 without waiting for the work. */
  onTimeout: (() => void) | undefined;

  /** `deadline`: `performance.now()` past which the body is answered -32011. */
  constructor(readonly deadline: number) {}

  /** Whether the work was told to stop. */
  get aborted(): boolean {
    return this.reason !== undefined;
  }

  /** Whether the deadline has passed (`expire` was called). */
  get expired(): boolean {
    return this.timedOut;
  }

  /** The signal of `RequestContext`, aborted with the same reason as this control. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.reason) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Tells the work to stop (its client left, or the server closes); the answer still waits for the work. */
  abort(reason: RpcError): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller?.abort(reason);
  }

  /** The deadline passed: stops the work and answers at once. */
  expire(reason: RpcError): void {
    if (this.timedOut) return;
    this.timedOut = true;
    this.abort(reason);
    this.onTimeout?.();
  }
}
