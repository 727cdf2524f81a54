/**
 * The chain's view of its store while a collection may run: every batch written through it that
 * stores state also marks what it stores, in the same batch, when a collection is marking or sweeping
 * (docs/operations.md §12). So a block that stores a node equal to one the collection found
 * unreachable keeps it: the sweep deletes only what has no mark, and runs between such writes.
 */
import type {Bucket, BucketRange, KeyValueStore, WriteBatch} from "@xchain/db";
import {markStateWrites} from "@xchain/state";

export class MarkingStore implements KeyValueStore {
  constructor(
    private readonly inner: KeyValueStore,
    private readonly marking: () => boolean,
  ) {}

  get(bucket: Bucket, key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.inner.get(bucket, key);
  }

  entries(bucket: Bucket, range?: BucketRange): AsyncIterable<[Uint8Array, Uint8Array]> {
    return this.inner.entries(bucket, range);
  }

  write(batch: WriteBatch): Promise<void> {
    if (this.marking()) batch.append(markStateWrites(batch.ops));
    return this.inner.write(batch);
  }
}
