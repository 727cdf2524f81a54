/**
 * Generates the flat state in the background (docs/operations.md §13): step after step, each read
 * beside imports (the next entries of the head's trie) and written in the chain's queue as one batch
 * with the meta record, so a crash resumes from the last written step. A step prepared while the head
 * moved is dropped and prepared again from the new head (the writer followed the move up to the marker).
 */
import {type KeyValueStore, WriteBatch} from "@xchain/db";
import type {FlatStateWriter} from "@xchain/state";
import type {Logger} from "@xchain/utils";

/** Entries a step copies: a batch of a few hundred puts holds the chain's queue for a millisecond or two. */
export const FLAT_STEP_ENTRIES = 512;

/** What the generator needs of the chain. */
export interface FlatGeneratorChain {
  kv: KeyValueStore;
  /** Runs `task` in the chain's queue, between imports and state edits. */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
}

export class FlatStateGenerator {
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Steps written since start (metrics). */
  steps = 0;

  constructor(
    private readonly writer: FlatStateWriter,
    private readonly chain: FlatGeneratorChain,
    private readonly logger: Logger,
    private readonly stepEntries = FLAT_STEP_ENTRIES,
  ) {}

  /** Starts generating when there is something to generate and no run is under way. */
  poke(): void {
    if (this.running || this.stopped || !this.writer.generating()) return;
    this.running = this.run().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves once no run is under way (the flat state is complete, or a run stopped on an error). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops between two steps (before the store closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  private async run(): Promise<void> {
    try {
      while (!this.stopped && this.writer.generating()) {
        const step = await this.writer.prepareStep(this.stepEntries);
        if (step === undefined) return;
        await this.chain.exclusive(async () => {
          const ops = this.writer.commitStep(step);
          if (ops === undefined || this.stopped) return;
          await this.chain.kv.write(new WriteBatch().append(ops));
          this.writer.applied(step);
          this.steps++;
        });
        // Imports and requests run between steps.
        await new Promise((resolve) => setImmediate(resolve));
      }
      const status = this.writer.status();
      if (status?.phase === "complete") this.logger.info({root: status.root}, "flat state generated");
    } catch (e) {
      // A node missing under the head (a damaged store) or a failed write: the next head change tries again.
      this.logger.warn({err: e}, "flat state generation stopped; reads walk the trie until it resumes");
    }
  }
}
