/**
 * The time controls (docs/rpc.md §4.10 "Time") over the miner clock, within the chain's rules: a block's
 * timestamp must exceed its parent's (docs/protocol/fees.md §1.5), fit the Bitcoin header's 32-bit time
 * (`MAX_SHIFTED_SECONDS`) and, where the network limits it, be at most newBlockMaxSecondsInTheFuture ahead
 * of the wall clock.
 */
import type {ChainHead} from "@xchain/chain";
import {MAX_SHIFTED_SECONDS, type MinerClock} from "../clock.ts";
import type {WorkManager} from "../template/workManager.ts";
import {notAllowed} from "./notAllowed.ts";
import type {TimeControls} from "./types.ts";

/** What the time controls act on. */
export interface TimeControlsDeps {
  head: () => ChainHead;
  clock: MinerClock;
  work: Pick<WorkManager, "invalidate">;
  /** The wall clock in milliseconds. */
  now: () => number;
  /** The chain's newBlockMaxSecondsInTheFuture; 0 (regtest) sets no limit. */
  maxSecondsInFuture: number;
}

/** evm_setNextBlockTimestamp, anvil_setTime and the block timestamp interval. */
export class ClockTimeControls implements TimeControls {
  constructor(private readonly deps: TimeControlsDeps) {}

  setNextBlockTimestamp(timestamp: number): void {
    this.checkBlockTimestamp(timestamp);
    this.deps.clock.setNextTimestamp(timestamp);
    this.deps.work.invalidate();
  }

  setTime(timestamp: number): number {
    this.checkWithinLimits(timestamp, "cannot set the time to");
    const {clock} = this.deps;
    const moved = Math.max(0, timestamp - clock.nowSeconds());
    clock.setTime(timestamp);
    this.deps.work.invalidate();
    return moved;
  }

  setBlockTimestampInterval(seconds: number): void {
    if (!Number.isSafeInteger(seconds) || seconds < 1) {
      throw notAllowed(
        `cannot space blocks by ${seconds} seconds: a block's timestamp must exceed its parent's, so the interval is at least 1`,
      );
    }
    const next = this.deps.head().header.timestamp + seconds;
    if (next > MAX_SHIFTED_SECONDS) {
      throw notAllowed(
        `cannot space blocks by ${seconds} seconds: the next block's timestamp ${next} would pass ${MAX_SHIFTED_SECONDS}, the latest a block can carry`,
      );
    }
    this.deps.clock.setInterval(seconds);
    this.deps.work.invalidate();
  }

  removeBlockTimestampInterval(): boolean {
    const removed = this.deps.clock.removeInterval();
    if (removed) this.deps.work.invalidate();
    return removed;
  }

  /** NOT_ALLOWED unless a block on the head may carry `timestamp`. */
  checkBlockTimestamp(timestamp: number): void {
    const head = this.deps.head().header.timestamp;
    if (!Number.isSafeInteger(timestamp) || timestamp <= head) {
      throw notAllowed(
        `cannot set the next block's timestamp to ${timestamp}: it must be greater than the head block's timestamp ${head}`,
      );
    }
    this.checkWithinLimits(timestamp, "cannot set the next block's timestamp to");
  }

  private checkWithinLimits(timestamp: number, what: string): void {
    if (!Number.isSafeInteger(timestamp) || timestamp < 0 || timestamp > MAX_SHIFTED_SECONDS) {
      throw notAllowed(
        `${what} ${timestamp}: a block timestamp is 0 to ${MAX_SHIFTED_SECONDS} (the Bitcoin header's 32-bit time)`,
      );
    }
    const {maxSecondsInFuture, now} = this.deps;
    const latest = Math.floor(now() / 1000) + maxSecondsInFuture;
    if (maxSecondsInFuture > 0 && timestamp > latest) {
      throw notAllowed(
        `${what} ${timestamp}: this chain refuses blocks more than ${maxSecondsInFuture} s ahead of the clock (latest ${latest})`,
      );
    }
  }
}
