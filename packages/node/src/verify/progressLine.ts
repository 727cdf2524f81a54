/** The progress line a long command writes to stderr (`verify-headers --rpc`, `db export`, `db import`). */

/** What a line is written from: the items counted so far and their rate. */
export interface Progress {
  count: number;
  perSecond: number;
}

/** Counts items and writes at most one line per `intervalMs`, and a last one on `done()`. */
export class ProgressLine {
  private readonly startedAt = Date.now();
  private lastWrittenAt = this.startedAt;
  private count = 0;

  constructor(
    private readonly write: (line: string) => void,
    private readonly intervalMs = 1000,
  ) {}

  /** One more item; `describe` makes the line when one is due. */
  tick(describe: (progress: Progress) => string): void {
    this.count++;
    const now = Date.now();
    if (now - this.lastWrittenAt < this.intervalMs) return;
    this.lastWrittenAt = now;
    this.write(describe(this.progress(now)));
  }

  /** The final line, whenever the last tick was (none when nothing was counted). */
  done(describe: (progress: Progress) => string): void {
    if (this.count > 0) this.write(describe(this.progress(Date.now())));
  }

  private progress(now: number): Progress {
    const seconds = Math.max((now - this.startedAt) / 1000, 0.001);
    return {count: this.count, perSecond: Math.round(this.count / seconds)};
  }
}
