/**
 * Calls give the event loop back. A call runs on the node's main thread, and @ethereumjs/evm's
 * interpreter only awaits microtasks between opcodes, so an endless loop under the gas cap would
 * hold the thread for seconds. Each call therefore gets a time slice: at its preemption points
 * (the opcodes a long execution cannot avoid, see preemptibleOpcodes.ts) it yields to the event
 * loop once its slice is spent, and stops there when its signal is aborted. The slices of all
 * running calls add up to about one round, so other work waits at most that long whatever the
 * number of calls (docs/rpc.md §8).
 */
import {setImmediate} from "node:timers/promises";
import {ExecutionInterruptedCode, ExecutionInterruptedError} from "../errors.ts";

/** The time all running calls share before the event loop gets its turn. */
const ROUND_MS = 8;
/** The least slice a call gets, however many run. */
const MIN_SLICE_MS = 0.5;
/** Preemption points between two readings of the clock. */
const POINTS_PER_CLOCK_READ = 64;

/** The running calls, which share a round. */
export class CallScheduler {
  private running = 0;

  /** Starts a call's preemption; `finish` it when the call ends. */
  start(signal: Pick<AbortSignal, "aborted"> | undefined): Preemption {
    this.running++;
    return new Preemption(this, signal);
  }

  /** @internal the slice of a call now. */
  sliceMs(): number {
    return Math.max(MIN_SLICE_MS, ROUND_MS / Math.max(1, this.running));
  }

  /** @internal a call has ended. */
  release(): void {
    this.running--;
  }
}

/** One call's time slice and stop signal. */
export class Preemption {
  private points = 0;
  private sliceEnd: number;
  private finished = false;

  constructor(
    private readonly scheduler: CallScheduler,
    private readonly signal: Pick<AbortSignal, "aborted"> | undefined,
  ) {
    this.sliceEnd = performance.now() + scheduler.sliceMs();
  }

  /**
   * A preemption point: undefined while the slice lasts, else a promise that resolves in a later
   * turn of the event loop, or rejects with `ExecutionInterruptedError` when the signal is aborted.
   */
  point(): Promise<void> | undefined {
    // The signal can only be aborted while the event loop turns, which a call lets happen at a
    // pause or while it awaits a read; looking at it with the clock is soon enough.
    if (++this.points % POINTS_PER_CLOCK_READ !== 0) return undefined;
    if (!this.signal?.aborted && performance.now() < this.sliceEnd) return undefined;
    return this.yield();
  }

  /** The call has ended (normally or not); its share of the round goes to the others. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.scheduler.release();
  }

  private async yield(): Promise<void> {
    if (!this.signal?.aborted) await setImmediate();
    if (this.signal?.aborted) {
      throw new ExecutionInterruptedError({code: ExecutionInterruptedCode.ABORTED}, "call interrupted: aborted");
    }
    this.sliceEnd = performance.now() + this.scheduler.sliceMs();
  }
}
