/**
 * The chain's view of its store while a collection may run: every batch written through it that
 * stores state also marks what it stores, in the same batch, when a collection is marking or sweeping
 * (docs/operations.md §12). So a block that stores a node equal to one the collection found
 * unreachable keeps it: the sweep deletes only what has no mark, and runs between such writes. A
 * sweep step learns of the marks written after its scan read them from a watch (`watchStateWrites`),
 * so its deletes need no read while imports wait.
 */
import {Bucket, type BucketRange, type KeyValueStore, type WriteBatch} from "@xchain/db";
import {markStateWrites} from "@xchain/state";
import {bytesToHex} from "@xchain/utils";

/** The `stateTrie` keys (hex) stored through the view since the watch began; `close` ends it. */
export interface StateWriteWatch {
  readonly stored: ReadonlySet<string>;
  close(): void;
}

export class MarkingStore implements KeyValueStore {
  private readonly watches = new Set<Set<string>>();

  constructor(
    private readonly inner: KeyValueStore,
    /** The running collection's epoch while writes of state must be marked, undefined otherwise. */
    private readonly marking: () => number | undefined,
  ) {}

  get(bucket: Bucket, key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.inner.get(bucket, key);
  }

  getMany(bucket: Bucket, keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    return this.inner.getMany(bucket, keys);
  }

  entries(bucket: Bucket, range?: BucketRange): AsyncIterable<[Uint8Array, Uint8Array]> {
    return this.inner.entries(bucket, range);
  }

  async write(batch: WriteBatch): Promise<void> {
    const epoch = this.marking();
    if (epoch !== undefined) batch.append(markStateWrites(batch.ops, epoch));
    await this.inner.write(batch);
    if (this.watches.size === 0) return;
    for (const op of batch.ops) {
      if (op.type !== "put" || op.key[0] !== Bucket.stateTrie) continue;
      const key = bytesToHex(op.key.subarray(1));
      for (const stored of this.watches) stored.add(key);
    }
  }

  /**
   * Starts recording the `stateTrie` keys of every batch written through the view, each once its batch
   * is written: a read begun after this call that missed a batch's marks finds its keys recorded.
   */
  watchStateWrites(): StateWriteWatch {
    const stored = new Set<string>();
    this.watches.add(stored);
    return {stored, close: () => this.watches.delete(stored)};
  }
}
