/**
 * The bound on the keystore's key derivations (docs/protocol/keystore.md §5): at most `running` run
 * at once (each scrypt takes 256 MiB and a thread of libuv's pool for about a second), at most
 * `waiting` more wait in order; past both, `KeystoreBusyError` at once. A request told to stop
 * (its timeout, its client gone) leaves the queue, or does not start, with its signal's reason.
 */
import {KeystoreBusyCode, KeystoreBusyError} from "@xchain/rpc";

/** How many derivations may run and wait (`wallet.keyDerivations`, `wallet.keyDerivationQueue`). */
export interface DerivationBounds {
  running: number;
  waiting: number;
}

/** A derivation waiting for a slot: started by `release`, or dropped when its signal aborts. */
interface Waiter {
  start(): void;
}

/** Slots for key derivations, handed to the waiters in order. */
export class DerivationSlots {
  private running = 0;
  private readonly queue: Waiter[] = [];

  constructor(private readonly bounds: DerivationBounds) {}

  /** Derivations running now. */
  get active(): number {
    return this.running;
  }

  /** Derivations waiting for a slot now. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Runs `derive` in a slot, after those waiting before it; `KeystoreBusyError` when none is free and the queue is full. */
  async run<T>(derive: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    if (this.running < this.bounds.running) this.running++;
    else await this.wait(signal);
    try {
      return await derive();
    } finally {
      this.release();
    }
  }

  /** Resolves holding a slot (handed over by `release`), or rejects when the signal aborts first. */
  private wait(signal: AbortSignal | undefined): Promise<void> {
    if (this.queue.length >= this.bounds.waiting) {
      const {running, waiting} = this.bounds;
      throw new KeystoreBusyError(
        {code: KeystoreBusyCode.BUSY, running, waiting},
        `keystore busy: ${running} key derivations running and ${waiting} waiting (wallet.keyDerivations, wallet.keyDerivationQueue); retry later`,
      );
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener("abort", leave);
          resolve();
        },
      };
      const leave = () => {
        this.queue.splice(this.queue.indexOf(waiter), 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", leave, {once: true});
      this.queue.push(waiter);
    });
  }

  /** Hands the slot to the first waiter, or frees it. */
  private release(): void {
    const next = this.queue.shift();
    if (next) next.start();
    else this.running--;
  }
}
