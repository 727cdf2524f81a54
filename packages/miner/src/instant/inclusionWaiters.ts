/**
 * Instant mining's promise to eth_sendRawTransaction: a transaction that became pending while the
 * built-in miner mines instantly is expected in a block soon; `wait` resolves once a block with it
 * joined the chain, once the miner went idle without it, or after a bound, whichever comes first.
 * Only a few answers are held at once: a burst of concurrent senders is then answered at once and
 * mined in large blocks, instead of one small block per round of held senders.
 */
import type {Block, Transaction} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";

/** Transactions expected in the built-in miner's next blocks, and who waits for them. */
export class InclusionWaiters {
  private readonly expected = new Map<string, {done: Promise<void>; resolve: () => void}>();
  private held = 0;

  /** `maxWaitMs` bounds every `wait`; beyond `maxHeld` waits at once, a `wait` resolves at once. */
  constructor(
    private readonly maxWaitMs: number,
    private readonly maxHeld: number,
  ) {}

  /** `tx` became pending and the miner will take it (called synchronously, before its sender gets an answer). */
  expect(tx: Transaction): void {
    const key = bytesToHex(tx.hash());
    if (this.expected.has(key)) return;
    let resolve = (): void => undefined;
    const done = new Promise<void>((r) => {
      resolve = r;
    });
    this.expected.set(key, {done, resolve});
  }

  /**
   * Resolves once the transaction `hash` was mined, or will not be soon; at once when it is not
   * expected or `maxHeld` answers are already held.
   */
  async wait(hash: Uint8Array): Promise<void> {
    const entry = this.expected.get(bytesToHex(hash));
    if (!entry || this.held >= this.maxHeld) return;
    this.held++;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.maxWaitMs);
    });
    try {
      await Promise.race([entry.done, bound]);
    } finally {
      this.held--;
      clearTimeout(timer);
    }
  }

  /** Blocks joined the canonical chain: their transactions are mined. */
  included(blocks: readonly Block[]): void {
    if (this.expected.size === 0) return;
    for (const block of blocks) {
      for (const tx of block.transactions) this.settle(bytesToHex(tx.hash()));
    }
  }

  /** The miner has nothing left to mine (or stopped): nobody waits any longer. */
  releaseAll(): void {
    for (const key of [...this.expected.keys()]) this.settle(key);
  }

  private settle(key: string): void {
    const entry = this.expected.get(key);
    if (!entry) return;
    this.expected.delete(key);
    entry.resolve();
  }
}
