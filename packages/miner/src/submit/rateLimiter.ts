/**
 * rskj's `SubmissionRateLimitHandler` (docs/protocol/mining-rpc.md §3): at most one external submission per
 * interval (testnet: 10 s).
 */
import {MinerError} from "../errors.ts";
import {MinerErrorCode} from "../types.ts";

/** Refuses a submission that follows the previous one too closely; a limit of 0 turns it off. */
export class SubmissionRateLimiter {
  private lastSubmittedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly limitMs: number,
    private readonly now: () => number,
  ) {}

  /** Throws RATE_LIMITED when the previous submission was less than the limit ago. */
  check(): void {
    if (this.limitMs <= 0) return;
    const elapsed = this.now() - this.lastSubmittedAt;
    if (elapsed < this.limitMs) {
      throw new MinerError({code: MinerErrorCode.RATE_LIMITED, retryAfterMs: this.limitMs - elapsed});
    }
  }

  /** A submission reached import. */
  record(): void {
    this.lastSubmittedAt = this.now();
  }
}
