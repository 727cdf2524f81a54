/** The miner's clock (docs/protocol/mining-rpc.md §6 `MinerClock`): wall time plus the shift evm_increaseTime adds. */

/**
 * The latest block timestamp a shift may reach: a merge-mined block's time also travels in the Bitcoin
 * header's 32-bit time field (docs/protocol/mining-rpc.md §6.6), and a header timestamp beyond what the
 * clock can advance to would make every template fail.
 */
export const MAX_SHIFTED_SECONDS = 2 ** 32 - 1;

/** What `MinerClock.save` keeps: the clock's adjustments, not the wall time (a dev snapshot's clock). */
export interface MinerClockState {
  readonly offsetSeconds: number;
  readonly catchUpSeconds: number;
}

/** Seconds for block timestamps, shifted by whole seconds. */
export class MinerClock {
  private offsetSeconds = 0;
  /** How far `increase` moved the clock up to a head that was ahead of it (not part of the reported shift). */
  private catchUpSeconds = 0;

  constructor(private readonly now: () => number) {}

  /** Now plus the shift, in whole seconds. */
  nowSeconds(): number {
    return Math.floor(this.now() / 1000) + this.offsetSeconds + this.catchUpSeconds;
  }

  /** The current shift, in seconds. */
  get shiftSeconds(): number {
    return this.offsetSeconds;
  }

  /** Everything added to the wall clock (the shift and the catch-up): the clock moved when this changed. */
  get adjustmentSeconds(): number {
    return this.offsetSeconds + this.catchUpSeconds;
  }

  /**
   * Adds `seconds` to the shift, counted from `notBefore` (the head's timestamp) when the clock is behind it,
   * so the next block comes at least `seconds` after the head (docs/rpc.md §4.7); returns the total shift.
   */
  increase(seconds: number, notBefore: number): number {
    // Blocks mined faster than one a second run ahead of the clock (parent + 1): count from the head then.
    this.catchUpSeconds += Math.max(0, notBefore - this.nowSeconds());
    this.offsetSeconds += seconds;
    return this.offsetSeconds;
  }

  /** The adjustments now (evm_snapshot); every field of the clock but the wall time it reads. */
  save(): MinerClockState {
    return {offsetSeconds: this.offsetSeconds, catchUpSeconds: this.catchUpSeconds};
  }

  /** Puts back adjustments `save` returned (evm_revert): the wall time goes on, the shift is the saved one. */
  restore(state: MinerClockState): void {
    this.offsetSeconds = state.offsetSeconds;
    this.catchUpSeconds = state.catchUpSeconds;
  }

  /** Drops the shift (evm_reset). */
  reset(): void {
    this.offsetSeconds = 0;
    this.catchUpSeconds = 0;
  }
}
