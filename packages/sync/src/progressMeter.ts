/** Sync progress for `eth_syncing` and the progress line: where the sync started, where it is, where it goes, and how fast. */
import type {SyncProgress} from "./types.ts";

/** The window `blocksPerSecond` is measured over. */
const RATE_WINDOW_MS = 5_000;

/** Counts imports per second over the last few seconds. */
export class ProgressMeter {
  private readonly startingBlock: number;
  private currentBlock: number;
  private highestBlock: number;
  /** Import times (ms) within the window, oldest first. */
  private readonly times: number[] = [];
  private readonly startedAt: number;

  constructor(
    startingBlock: number,
    private readonly nowMs: () => number = Date.now,
  ) {
    this.startingBlock = startingBlock;
    this.currentBlock = startingBlock;
    this.highestBlock = startingBlock;
    this.startedAt = nowMs();
  }

  /** A block the sync imported. */
  imported(number: number): void {
    this.currentBlock = number;
    this.highestBlock = Math.max(this.highestBlock, number);
    this.times.push(this.nowMs());
    this.trim();
  }

  /** The highest block a peer we sync from has. */
  target(number: number): void {
    this.highestBlock = Math.max(this.highestBlock, number);
  }

  snapshot(): SyncProgress {
    this.trim();
    const now = this.nowMs();
    // Over the window, or the time since the start when shorter (at least a second: no spikes at the start).
    const elapsed = Math.max(1_000, Math.min(RATE_WINDOW_MS, now - this.startedAt));
    const blocksPerSecond = Math.round((this.times.length * 10_000) / elapsed) / 10;
    return {
      startingBlock: this.startingBlock,
      currentBlock: this.currentBlock,
      highestBlock: this.highestBlock,
      blocksPerSecond,
    };
  }

  private trim(): void {
    const cutoff = this.nowMs() - RATE_WINDOW_MS;
    let drop = 0;
    while (drop < this.times.length && (this.times[drop] as number) < cutoff) drop++;
    if (drop > 0) this.times.splice(0, drop);
  }
}
