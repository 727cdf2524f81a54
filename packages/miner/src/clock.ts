/** The miner's clock (docs/protocol/mining-rpc.md §6 `MinerClock`): wall time plus the shift evm_increaseTime adds. */

/** Seconds for block timestamps, shifted by whole seconds. */
export class MinerClock {
  private offsetSeconds = 0;

  constructor(private readonly now: () => number) {}

  /** Now plus the shift, in whole seconds. */
  nowSeconds(): number {
    return Math.floor(this.now() / 1000) + this.offsetSeconds;
  }

  /** Adds `seconds` to the shift; returns the total shift. */
  increase(seconds: number): number {
    this.offsetSeconds += seconds;
    return this.offsetSeconds;
  }
}
