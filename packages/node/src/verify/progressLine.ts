/** The progress line `verify-headers --rpc` writes to stderr: where it is, how far, how fast. */

/** Writes at most one line per `intervalMs`, and a last one on `done()`. */
export class ProgressLine {
  private readonly startedAt = Date.now();
  private lastWrittenAt = this.startedAt;
  private count = 0;

  constructor(
    private readonly total: number,
    private readonly write: (line: string) => void,
    private readonly intervalMs = 1000,
  ) {}

  /** Block `number` was verified; `invalid` is the invalid count so far. */
  tick(number: number, invalid: number): void {
    this.count++;
    const now = Date.now();
    if (now - this.lastWrittenAt < this.intervalMs) return;
    this.lastWrittenAt = now;
    this.write(this.line(number, invalid, now));
  }

  /** The final line, whenever the last tick was. */
  done(number: number, invalid: number): void {
    if (this.count > 0) this.write(this.line(number, invalid, Date.now()));
  }

  private line(number: number, invalid: number, now: number): string {
    const seconds = Math.max((now - this.startedAt) / 1000, 0.001);
    const percent = Math.floor((this.count * 100) / this.total);
    const rate = Math.round(this.count / seconds);
    return `verify-headers: block ${number}, ${this.count}/${this.total} (${percent}%), ${rate} blocks/s, ${invalid} invalid`;
  }
}
