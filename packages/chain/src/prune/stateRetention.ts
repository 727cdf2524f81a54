/**
 * Which states the chain keeps (docs/operations.md §12): the options, the collector's record as last
 * written, and the roots dev snapshots hold. It answers the oldest block whose state is served, refuses
 * older ones with STATE_PRUNED, and says when writes of state must carry the collection's marks.
 */
import type {KeyValueStore, WriteBatch} from "@xchain/db";
import {StateError, StateErrorCode} from "@xchain/state";
import {bytesToHex} from "@xchain/utils";
import type {StateRetentionOptions} from "../options.ts";
import {CollectionPhase, putRetentionRecord, type RetentionRecord, readRetentionRecord} from "./retentionRecord.ts";

/** A root held by a dev snapshot; `release` lets it go (once is enough, more is harmless). */
export interface StatePin {
  release(): void;
}

export class StateRetention {
  private current: RetentionRecord;
  private readonly pins = new Map<string, {root: Uint8Array; holders: number}>();

  private constructor(
    readonly options: StateRetentionOptions,
    record: RetentionRecord,
  ) {
    this.current = record;
  }

  static async load(options: StateRetentionOptions, kv: KeyValueStore): Promise<StateRetention> {
    return new StateRetention(options, await readRetentionRecord(kv));
  }

  get record(): RetentionRecord {
    return this.current;
  }

  /** Adds the record to `batch`; `applied` makes it current once the batch is written. */
  write(batch: WriteBatch, record: RetentionRecord): {applied(): void} {
    putRetentionRecord(batch, record);
    return {applied: () => (this.current = record)};
  }

  /** Whether a write that stores state must mark what it stores (a collection is marking or sweeping). */
  get marking(): boolean {
    return this.current.phase === CollectionPhase.Mark || this.current.phase === CollectionPhase.Sweep;
  }

  /** The epoch a write that stores state marks it with while `marking` (undefined when not). */
  get markingEpoch(): number | undefined {
    return this.marking ? this.current.epoch : undefined;
  }

  /** The lowest block of the window behind a head numbered `headNumber` (pruned mode). */
  windowStart(headNumber: number): number {
    return Math.max(0, headNumber - this.options.retainBlocks + 1);
  }

  /**
   * The oldest block whose state is served: the window's start (pruned), or what a past collection left
   * (archive); never below a running collection's cutoff (a head moved back by a reorganization must not
   * bring back states the collection does not keep).
   */
  oldestStateBlock(headNumber: number): number {
    const {prunedBelow, cutoff} = this.current;
    const floor = this.marking ? Math.max(prunedBelow, cutoff) : prunedBelow;
    return this.options.mode === "archive" ? floor : Math.max(floor, this.windowStart(headNumber));
  }

  /** Throws STATE_PRUNED when the state after block `blockNumber` is older than the oldest served. */
  requireServed(blockNumber: number, headNumber: number): void {
    const oldest = this.oldestStateBlock(headNumber);
    if (blockNumber >= oldest) return;
    const how =
      this.options.mode === "archive"
        ? "it was deleted while the node ran pruned"
        : `this node keeps the states of the last ${this.options.retainBlocks} blocks (state.mode = pruned, state.retainBlocks)`;
    throw new StateError(
      {code: StateErrorCode.PRUNED, block: blockNumber, oldestBlock: oldest},
      `historical state is not available: the state after block ${blockNumber} was pruned (${how}); the oldest block whose state is served is ${oldest}`,
    );
  }

  /**
   * Keeps `root` through collections until released (a dev snapshot's state). A root is only pinned
   * while it is retained anyway (the head's), so the pin never races a collection.
   */
  pin(root: Uint8Array): StatePin {
    const key = bytesToHex(root);
    const entry = this.pins.get(key) ?? {root: Uint8Array.from(root), holders: 0};
    entry.holders++;
    this.pins.set(key, entry);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        if (--entry.holders === 0) this.pins.delete(key);
      },
    };
  }

  pinnedRoots(): Uint8Array[] {
    return [...this.pins.values()].map(({root}) => root);
  }
}
