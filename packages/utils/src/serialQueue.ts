/** Runs async tasks one at a time, in submission order (block import, txpool admission). */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` after every task submitted before it has settled. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every task submitted so far has settled. */
  settled(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
