/**
 * Dropped RPC clients (a body too slow, a WebSocket reader too slow, a connection error): each one
 * is a debug line, and the count by reason is summed up in at most one warn line per interval, so
 * that a flood of abusive clients cannot flood the log (docs/rpc.md §4.1).
 */
import type {Logger} from "@xchain/utils";

/** One warn summary a minute at most. */
export const DROPPED_SUMMARY_INTERVAL_MS = 60_000;

/** Counts dropped clients by reason and logs the summary. */
export class DroppedClients {
  private readonly counts = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly intervalMs: number = DROPPED_SUMMARY_INTERVAL_MS,
  ) {}

  /**
   * Records one dropped client: a debug line now with `context`, and one more under `reason` in the
   * next summary, which is written `intervalMs` after the first drop it counts.
   */
  record(reason: string, context: object = {}): void {
    this.logger.debug({...context, reason}, "rpc client dropped");
    this.count(reason);
  }

  /** Counts one refused client under `reason` for the next summary, without a line of its own (a flood of wrong API keys). */
  count(reason: string): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
    if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), this.intervalMs);
      // A pending summary does not keep the process alive.
      this.timer.unref();
    }
  }

  /** Writes the summary of the drops not yet summed up, if any, and stops the timer. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.counts.size === 0) return;
    const reasons = Object.fromEntries(this.counts);
    const total = [...this.counts.values()].reduce((a, b) => a + b, 0);
    const list = [...this.counts].map(([reason, n]) => `${reason}: ${n}`).join(", ");
    this.counts.clear();
    this.logger.warn(
      {dropped: total, reasons},
      `dropped ${total} rpc client${total === 1 ? "" : "s"} in the last ${this.intervalMs / 1000} s (${list})`,
    );
  }
}
