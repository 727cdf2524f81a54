/**
 * The error that ends a sync run, and `guard`: a promise that settles as the one given, or rejects with
 * that error as soon as the run fails. Not `Promise.race([promise, failure])`: every race leaves a reaction
 * on the long-lived `failure` promise that keeps the race's promise, and so its value, reachable until the
 * run ends: a run that guards each downloaded body kept every body of the sync in memory (docs/performance.md
 * §12). Here a guard's listener is dropped as soon as its promise settles.
 */
export class RunFailure {
  private failure: Error | undefined;
  private readonly listeners = new Set<(error: Error) => void>();

  /** The run's error, once it failed. */
  get error(): Error | undefined {
    return this.failure;
  }

  /** Guards still waiting on their promise (0 once every guarded promise settled). */
  get pending(): number {
    return this.listeners.size;
  }

  /** Fails the run with `error` (the first error stays); every pending guard rejects with it. */
  fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const reject of listeners) reject(error);
  }

  /** `promise`, or the run's error as soon as the run fails. */
  guard<T>(promise: Promise<T>): Promise<T> {
    if (this.failure) {
      promise.catch(() => undefined);
      return Promise.reject(this.failure);
    }
    return new Promise<T>((resolve, reject) => {
      this.listeners.add(reject);
      promise.then(
        (value) => {
          this.listeners.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          this.listeners.delete(reject);
          reject(error);
        },
      );
    });
  }
}
