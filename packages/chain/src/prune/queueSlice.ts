/**
 * The state collector's turns in the chain's queue (docs/operations.md §12): the collector holds the
 * queue for a slice of time, then lets every import, mining or state edit queued meanwhile run before
 * its next slice. So an import waits for one slice at most, and runs undisturbed after it: a walk that
 * ran beside imports took the event loop between every two of an import's reads, and made each import
 * several times slower for the whole of a collection (docs/performance.md §25).
 */

/** Runs `task` in the chain's queue, between imports and state edits. */
export type Exclusive = <T>(task: () => Promise<T>) => Promise<T>;

export class QueueSlice {
  private release: (() => void) | undefined;
  private started = 0;

  /**
   * @param sliceMs how long one turn may hold the queue (a step in progress ends first).
   * @param held called with the time each turn held the queue.
   */
  constructor(
    private readonly exclusive: Exclusive,
    private readonly sliceMs: number,
    private readonly held: (ms: number) => void,
  ) {}

  /** Waits for the queue and holds it. */
  async enter(): Promise<void> {
    if (this.release !== undefined) throw new Error("QueueSlice: entered twice");
    this.release = await new Promise<() => void>((entered) => {
      void this.exclusive(() => new Promise<void>((done) => entered(done)));
    });
    this.started = performance.now();
  }

  /** Whether the turn has used its time. */
  get spent(): boolean {
    return performance.now() - this.started >= this.sliceMs;
  }

  /** Once the turn has used its time, lets what queued meanwhile run, then holds the queue again. */
  async yield(): Promise<void> {
    if (!this.spent) return;
    this.leave();
    await this.enter();
  }

  /** Lets the queue go (no-op when not held). */
  leave(): void {
    const release = this.release;
    if (release === undefined) return;
    this.release = undefined;
    this.held(performance.now() - this.started);
    release();
  }
}
