/**
 * Dev state overrides ("irregular state", as Hardhat's EDR keeps it): a block whose state a dev
 * control edited (`Chain.editHeadState`) has a second state root, the one reads of "the state after
 * this block" and the blocks built on it start from, instead of its header's stateRoot. Every
 * record is held in memory (one per edited block, loaded at open) and written in the batch of the
 * edit's trie writes (docs/architecture.md, "Dev state edits").
 */
import {Bucket, type KeyValueStore, type WriteBatch} from "@xchain/db";
import type {BlockHeader} from "@xchain/primitives";
import {bytesToHex, equalBytes} from "@xchain/utils";

/** The overrides by block hash, and their records in the `stateOverride` bucket. */
export class StateOverrides {
  /** State root by block hash hex; empty on a node whose state was never edited. */
  private readonly roots = new Map<string, Uint8Array>();

  constructor(private readonly kv: KeyValueStore) {}

  /** Reads every stored record (at open). */
  async load(): Promise<void> {
    for await (const [hash, root] of this.kv.entries(Bucket.stateOverride)) this.roots.set(bytesToHex(hash), root);
  }

  /** The state root after `header`: its override, else its own stateRoot. Without overrides no hash is read. */
  rootAfter(header: BlockHeader): Uint8Array {
    if (this.roots.size === 0) return header.stateRoot;
    return this.roots.get(bytesToHex(header.hash())) ?? header.stateRoot;
  }

  /**
   * Adds to `batch` the record making `root` the state after `header` (its deletion when `root` is
   * the header's own stateRoot); `remember` applies it in memory once the batch is written.
   */
  write(batch: WriteBatch, header: BlockHeader, root: Uint8Array): void {
    if (equalBytes(root, header.stateRoot)) batch.del(Bucket.stateOverride, header.hash());
    else batch.put(Bucket.stateOverride, header.hash(), root);
  }

  /** The record `write` added, now in memory (after its batch was written). */
  remember(header: BlockHeader, root: Uint8Array): void {
    const key = bytesToHex(header.hash());
    if (equalBytes(root, header.stateRoot)) this.roots.delete(key);
    else this.roots.set(key, root);
  }
}
