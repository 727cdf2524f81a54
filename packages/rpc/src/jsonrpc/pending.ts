/**
 * The synchronous fast path of the request path, and its one test. A cheap request (a read memoized
 * at the head, a kept eth_call answer, a refusal, an error) is answered by its handler with a plain
 * value, and every step between the handler and the socket (dispatch, the batch loop, `reply`, the
 * HTTP transport) passes a plain value on as it is, branching on `isPending`: only an answer that is
 * really pending is waited for. `await` or `.then` on a known value would make a promise and take a
 * turn of the microtask queue at every step, which is most of what a cheap read costs
 * (docs/performance.md, "Second pass: synchronous cheap reads"). So a handler that can answer at
 * once returns its value rather than being `async`, and a step that must do something after the
 * answer does it at once when the answer is known.
 */

/** Whether `value` must be waited for: a promise or any other thenable, as `await` would treat it. */
export function isPending<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === "object" && value !== null && typeof (value as {then?: unknown}).then === "function";
}
