/**
 * The miner's clock (docs/protocol/mining-rpc.md §6 `MinerClock`): wall time plus the shift evm_increaseTime adds,
 * and the dev controls of time (docs/rpc.md §4.10 "Time"): a one-shot timestamp for the next block, a
 * fixed interval between block timestamps, and jumps of the clock (setTime).
 */

/**
 * The latest block timestamp a shift may reach: a merge-mined block's time also travels in the Bitcoin
 * header's 32-bit time field (docs/protocol/mining-rpc.md §6.6), and a header timestamp beyond what the
 * clock can advance to would make every template fail.
 */
export const MAX_SHIFTED_SECONDS = 2 ** 32 - 1;

/** Everything the clock holds beyond the wall time (`save`/`restore`, for evm_snapshot and evm_revert). */
export interface MinerClockState {
  readonly offsetSeconds: number;
  readonly catchUpSeconds: number;
  readonly nextTimestamp: number | undefined;
  readonly intervalSeconds: number | undefined;
}

/** Seconds for block timestamps, shifted by whole seconds. */
export class MinerClock {
  private offsetSeconds = 0;
  /**
   * How far the clock moved besides the reported shift: up to a head that was ahead of it (`increase`), to a
   * time set (`setTime`), or to a next block's timestamp once mined. May be negative (a time set in the past).
   */
  private catchUpSeconds = 0;
  /** The timestamp of the next block (evm_setNextBlockTimestamp), until a head carries it. */
  private nextTimestamp: number | undefined;
  /** Blocks at the parent's timestamp plus this (anvil_setBlockTimestampInterval), wall time ignored. */
  private intervalSeconds: number | undefined;
  private changes = 0;

  constructor(private readonly now: () => number) {}

  /** Now plus the shift, in whole seconds. */
  nowSeconds(): number {
    return Math.floor(this.now() / 1000) + this.offsetSeconds + this.catchUpSeconds;
  }

  /** The current shift, in seconds. */
  get shiftSeconds(): number {
    return this.offsetSeconds;
  }

  /** Bumped by every change but the wall clock's: templates and the pending block built before it are stale. */
  get revision(): number {
    return this.changes;
  }

  /** The next block's timestamp set by `setNextTimestamp`, until a head carries it. */
  get pendingNextTimestamp(): number | undefined {
    return this.nextTimestamp;
  }

  /** The interval set by `setInterval`, if any. */
  get blockInterval(): number | undefined {
    return this.intervalSeconds;
  }

  /**
   * The timestamp of a block on a parent with `parentTimestamp`: the one set for the next block, else the
   * parent's plus the interval, else now plus the shift; always after the parent (docs/protocol/fees.md §1.5).
   */
  timestampAfter(parentTimestamp: number): number {
    const wanted =
      this.nextTimestamp ??
      (this.intervalSeconds === undefined ? this.nowSeconds() : parentTimestamp + this.intervalSeconds);
    return Math.max(wanted, parentTimestamp + 1);
  }

  /**
   * Adds `seconds` to the shift, counted from `notBefore` (the head's timestamp) when the clock is behind it,
   * so the next block comes at least `seconds` after the head (docs/rpc.md §4.7); returns the total shift.
   */
  increase(seconds: number, notBefore: number): number {
    // Blocks mined faster than one a second run ahead of the clock (parent + 1): count from the head then.
    this.catchUpSeconds += Math.max(0, notBefore - this.nowSeconds());
    this.offsetSeconds += seconds;
    this.changes++;
    return this.offsetSeconds;
  }

  /** Moves the clock so that now is `seconds` (anvil_setTime), and forgets a next block's timestamp. */
  setTime(seconds: number): void {
    this.catchUpSeconds += seconds - this.nowSeconds();
    this.nextTimestamp = undefined;
    this.changes++;
  }

  /** The next block carries `seconds` (the caller checks it against the head and the chain's rules). */
  setNextTimestamp(seconds: number): void {
    this.nextTimestamp = seconds;
    this.changes++;
  }

  /** Every block at its parent's timestamp plus `seconds`, until `removeInterval`. */
  setInterval(seconds: number): void {
    this.intervalSeconds = seconds;
    this.changes++;
  }

  /** Back to the wall clock plus the shift; false when no interval was set. */
  removeInterval(): boolean {
    if (this.intervalSeconds === undefined) return false;
    this.intervalSeconds = undefined;
    this.changes++;
    return true;
  }

  /**
   * A new head at `timestamp`: a next block's timestamp it reached is used up, and the clock goes on from
   * it (as anvil and Hardhat do), so the following blocks come after it by the time that passes.
   */
  headMoved(timestamp: number): void {
    if (this.nextTimestamp === undefined || timestamp < this.nextTimestamp) return;
    this.catchUpSeconds += this.nextTimestamp - this.nowSeconds();
    this.nextTimestamp = undefined;
    this.changes++;
  }

  /** Everything but the wall time, for `restore`. */
  save(): MinerClockState {
    const {offsetSeconds, catchUpSeconds, nextTimestamp, intervalSeconds} = this;
    return {offsetSeconds, catchUpSeconds, nextTimestamp, intervalSeconds};
  }

  /** Back to a `save`d state (the wall time has moved on meanwhile: the shift is kept, not the time). */
  restore(state: MinerClockState): void {
    this.offsetSeconds = state.offsetSeconds;
    this.catchUpSeconds = state.catchUpSeconds;
    this.nextTimestamp = state.nextTimestamp;
    this.intervalSeconds = state.intervalSeconds;
    this.changes++;
  }

  /** Drops the shift, a next block's timestamp and the interval (evm_reset). */
  reset(): void {
    this.restore({offsetSeconds: 0, catchUpSeconds: 0, nextTimestamp: undefined, intervalSeconds: undefined});
  }
}
