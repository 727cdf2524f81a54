/**
 * The state collector of a pruned node (docs/operations.md §12): in the background, a mark-and-sweep
 * of the `stateTrie` bucket in small steps. A collection starts once the window has moved by an
 * eighth of its length since the last one (`collectionsPerWindow`): its cutoff is the window's start
 * then. It marks every entry the retained roots reach with its epoch (reads and mark writes, beside
 * imports), then sweeps the bucket in key order deleting what has no mark of its epoch, and the marks
 * of older ones (each step one batch, run in the chain's queue between imports). Its marks are left
 * for the next collection to overwrite or sweep: no pass deletes them. Every step writes the
 * collector's record in its batch: a crash anywhere resumes where the last written step left off, and
 * loses nothing (marks are only ever added before the sweep, and a write of state during a collection
 * marks what it stores).
 */
import {type KeyValueStore, WriteBatch} from "@xchain/db";
import {
  clearMarksStep,
  type MarkControl,
  markState,
  markStates,
  StateError,
  StateErrorCode,
  sweepDeletes,
  sweepScan,
} from "@xchain/state";
import {bytesToPrefixedHex, type Logger} from "@xchain/utils";
import type {ChainHead} from "../types.ts";
import type {StateWriteWatch} from "./markingStore.ts";
import {type Exclusive, QueueSlice} from "./queueSlice.ts";
import type {RetainedRoot} from "./retainedRoots.ts";
import {CollectionPhase, type RetentionRecord} from "./retentionRecord.ts";
import type {StateRetention} from "./stateRetention.ts";

/** What the collector needs of the chain. */
export interface CollectorChain {
  /** The store itself (not the marking view: the collector's own writes carry no marks). */
  kv: KeyValueStore;
  head(): ChainHead;
  /** Runs `task` in the chain's queue, between imports and state edits. */
  exclusive: Exclusive;
  /** Records the state entries the chain's writes store from now on (`MarkingStore.watchStateWrites`). */
  watchStateWrites(): StateWriteWatch;
  /** The roots to keep, for a cutoff (`retainedRoots`). */
  retainedRoots(cutoff: number): Promise<RetainedRoot[]>;
}

/** How a collection shares the chain's queue: steps of a few milliseconds, in turns of `sliceMs`. */
export interface CollectorSteps {
  /** How long the collector holds the chain's queue at a time, marking or sweeping (a step in progress ends first). */
  sliceMs: number;
  /** A collection starts once the window has moved `retainBlocks / collectionsPerWindow` blocks (at least 1). */
  collectionsPerWindow: number;
  markBatchNodes: number;
  /** Nodes the mark walk reads with one request (`MarkControl.readNodes`). */
  markReadNodes: number;
  sweepKeys: number;
  clearKeys: number;
}

export const DEFAULT_COLLECTOR_STEPS: CollectorSteps = {
  collectionsPerWindow: 8,
  sliceMs: 100,
  markBatchNodes: 1000,
  markReadNodes: 512,
  sweepKeys: 1024,
  clearKeys: 2000,
};

/** Counters for the node's metrics. */
export interface CollectorStats {
  phase: CollectionPhase;
  /** Collections completed since start. */
  collections: number;
  /** Entries marked, scanned by sweeps and deleted, since start. */
  markedNodes: number;
  sweptKeys: number;
  deletedKeys: number;
  /** The longest sweep step (one batch), in milliseconds. */
  longestStepMs: number;
  /** The longest the collector held the chain's queue at a time (a turn: steps until `sliceMs`), in milliseconds. */
  longestSliceMs: number;
  /** The time every step together held the chain's queue since start, in milliseconds (imports wait that long). */
  queueMs: number;
}

export class StateCollector {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly abort = new AbortController();
  private readonly counters: CollectorStats = {
    phase: CollectionPhase.Idle,
    collections: 0,
    markedNodes: 0,
    sweptKeys: 0,
    deletedKeys: 0,
    longestStepMs: 0,
    longestSliceMs: 0,
    queueMs: 0,
  };

  constructor(
    private readonly retention: StateRetention,
    private readonly chain: CollectorChain,
    private readonly logger: Logger,
    private readonly steps: CollectorSteps = DEFAULT_COLLECTOR_STEPS,
  ) {}

  /** Starts a collection when one is due or unfinished (called after every new head, and once at open). */
  poke(): void {
    if (this.stopped) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    if (!this.due()) return;
    this.running = this.run()
      .catch((e) => {
        if (!this.stopped) this.logger.error({err: e}, `state collection stopped: ${(e as Error).message}`);
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.poke();
        }
      });
  }

  /** Resolves once no collection step runs; none starts after (the node's shutdown, before the store closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await this.running;
  }

  /** Resolves when the collector has nothing left to do for now (tests). */
  async idle(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  stats(): CollectorStats {
    return {...this.counters, phase: this.retention.record.phase};
  }

  private due(): boolean {
    const {record, options} = this.retention;
    if (record.phase !== CollectionPhase.Idle) return true;
    if (options.mode === "archive") return false;
    const interval = Math.max(1, Math.floor(options.retainBlocks / this.steps.collectionsPerWindow));
    return this.retention.windowStart(this.chain.head().number) - record.cutoff >= interval;
  }

  private async run(): Promise<void> {
    while (!this.stopped && this.due()) {
      const {phase} = this.retention.record;
      const archive = this.retention.options.mode === "archive";
      if (phase === CollectionPhase.Idle) await this.begin();
      else if (phase === CollectionPhase.Clear) await this.clearStep();
      else if (archive) await this.giveUp("state.mode is archive");
      else if (phase === CollectionPhase.Mark) await this.mark();
      else await this.sweep();
    }
  }

  /**
   * In the queue: the cutoff and the record, with which marking starts. The roots are listed after,
   * outside it (a window of thousands of headers is not read while imports wait): a block stored
   * before the record is listed, one stored after is marked by its own batch.
   */
  private async begin(): Promise<void> {
    const cutoff = await this.exclusive(async () => {
      const start = this.retention.windowStart(this.chain.head().number);
      const {epoch} = this.retention.record;
      await this.commit({
        ...this.retention.record,
        phase: CollectionPhase.Mark,
        cutoff: start,
        cursor: undefined,
        epoch: epoch + 1,
      });
      return start;
    });
    this.logger.info({cutoff}, `state collection: keeping the states from block ${cutoff}`);
  }

  /** Marks the retained states in turns of the chain's queue, then starts the sweep. */
  private async mark(): Promise<void> {
    const {cutoff, epoch} = this.retention.record;
    // Listed once marking is on (after a restart too: marks written before the crash stay valid).
    const roots = await this.chain.retainedRoots(cutoff);
    const slice = this.slice();
    await slice.enter();
    let damage: string | undefined;
    try {
      const control = {
        batchNodes: this.steps.markBatchNodes,
        readNodes: this.steps.markReadNodes,
        pause: () => slice.yield(),
        turn: () => slice.yield(),
        signal: this.abort.signal,
        epoch,
      };
      damage = await this.markRoots(roots, control);
      // The record's cutoff, not the one read above: a head set back meanwhile lowered it (`Chain.setHead`).
      const record = this.retention.record;
      const prunedBelow = Math.max(record.prunedBelow, record.cutoff);
      if (damage === undefined)
        await this.commit({...record, phase: CollectionPhase.Sweep, prunedBelow, cursor: undefined});
    } finally {
      slice.leave();
    }
    if (damage !== undefined) await this.giveUp(damage);
  }

  /** Marks `roots`; answers why the collection must stop when the head's state is not whole. */
  private async markRoots(roots: RetainedRoot[], control: MarkControl): Promise<string | undefined> {
    try {
      this.counters.markedNodes += await markStates(
        this.chain.kv,
        roots.map(({root}) => root),
        control,
      );
      return undefined;
    } catch (e) {
      if (!(e instanceof StateError && e.code === StateErrorCode.NODE_MISSING)) throw e;
    }
    // One state is not whole: each is walked alone (what the walk above marked stays), to know which.
    for (const {root, required} of roots) {
      try {
        this.counters.markedNodes += await markState(this.chain.kv, root, control);
      } catch (e) {
        if (!(e instanceof StateError && e.code === StateErrorCode.NODE_MISSING)) throw e;
        if (required) return `the head's state ${bytesToPrefixedHex(root)} is not whole: ${e.message}`;
        // A state a past collection took (a block the head was set back over) or never stored (a fork anchor's).
        this.logger.debug({root: bytesToPrefixedHex(root)}, "state collection: a retained state is not whole, skipped");
      }
    }
    return undefined;
  }

  /** Sweeps in turns of the chain's queue, a step (one batch) after the other, to the end of the bucket. */
  private async sweep(): Promise<void> {
    const slice = this.slice();
    await slice.enter();
    try {
      while (!this.stopped && this.retention.record.phase === CollectionPhase.Sweep) {
        await this.sweepStep();
        await slice.yield();
      }
    } finally {
      slice.leave();
    }
  }

  /**
   * A range scanned and its deletes written, the queue held: the keys found unmarked less those a
   * write stored since the scan began (the watch, opened before it: none while the queue is held;
   * it keeps the step right should a write of state ever bypass the queue).
   */
  private async sweepStep(): Promise<void> {
    const started = performance.now();
    const watch = this.chain.watchStateWrites();
    try {
      const {cursor, epoch} = this.retention.record;
      const scan = await sweepScan(this.chain.kv, cursor, this.steps.sweepKeys, epoch);
      const record = this.retention.record;
      const step = sweepDeletes(scan, watch.stored);
      this.counters.sweptKeys += step.scanned;
      this.counters.deletedKeys += step.deleted;
      // The last step ends the collection: its marks stay, of an epoch the next one does not count.
      const next =
        step.last === undefined
          ? {...record, phase: CollectionPhase.Idle, cursor: undefined}
          : {...record, cursor: step.last};
      const applied = this.retention.write(step.batch, next);
      await this.chain.kv.write(step.batch);
      applied.applied();
      this.counters.longestStepMs = Math.max(this.counters.longestStepMs, performance.now() - started);
      if (step.last === undefined) this.completed(record);
    } finally {
      watch.close();
    }
  }

  private slice(): QueueSlice {
    return new QueueSlice(this.chain.exclusive, this.steps.sliceMs, (ms) => {
      this.counters.queueMs += ms;
      this.counters.longestSliceMs = Math.max(this.counters.longestSliceMs, ms);
    });
  }

  /** A step of deleting every mark: for a collection abandoned (`giveUp`, `abandonCollection`) only. */
  private async clearStep(): Promise<void> {
    const step = await clearMarksStep(this.chain.kv, this.steps.clearKeys);
    const record = this.retention.record;
    const applied =
      step.last === undefined ? this.retention.write(step.batch, {...record, phase: CollectionPhase.Idle}) : undefined;
    await this.chain.kv.write(step.batch);
    applied?.applied();
    await pause();
  }

  private completed(record: RetentionRecord): void {
    this.counters.collections++;
    this.logger.info(
      {cutoff: record.cutoff, deleted: this.counters.deletedKeys},
      `state collection done: states before block ${record.prunedBelow} deleted`,
    );
  }

  /** Ends the collection where it stands (what it swept stays swept): its marks are cleared. */
  private giveUp(reason: string): Promise<void> {
    this.logger.warn({cutoff: this.retention.record.cutoff}, `state collection abandoned: ${reason}`);
    return this.exclusive(() => this.commit({...this.retention.record, phase: CollectionPhase.Clear}));
  }

  /** Runs `task` in the chain's queue, counting the time it holds it. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.chain.exclusive(async () => {
      const started = performance.now();
      try {
        return await task();
      } finally {
        this.counters.queueMs += performance.now() - started;
      }
    });
  }

  private async commit(record: RetentionRecord): Promise<void> {
    const batch = new WriteBatch();
    const applied = this.retention.write(batch, record);
    await this.chain.kv.write(batch);
    applied.applied();
  }
}

/** Lets imports, mining and requests run between two steps. */
function pause(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
