import type {MerklePatriciaTrie} from "@ethereumjs/mpt";
import {type BatchOp, Bucket, bucketKey} from "@xchain/db";
import {hexToBytes} from "@xchain/utils";
import type {BatchFlushStateManager} from "./batchStateManager.ts";
import {StateError, StateErrorCode} from "./errors.ts";
import {type TrieNodeStore, trieWrite} from "./nodeStore.ts";
import type {SessionTrieDB} from "./sessionDb.ts";
import type {StateCommit, StateSession} from "./types.ts";

/**
 * A writable view of the state at one root (see `StateDatabase.openSession`). Expected use, per block:
 *
 * await sm.checkpoint(); // once around the whole block (docs/dependencies.md §3.1: one trie flush per block)
 * ...execute transactions... // per-transaction checkpoints nest inside await sm.commit(); // depth 0: the
 * state manager flushes its caches into the trie const {root, writes} = await session.commit();
 *
 * `commit()` also works when the caller used no checkpoint at all (it flushes the caches itself);
 * it refuses to run while a checkpoint is open, because the trie would still hold writes back.
 */
export class TrieStateSession implements StateSession {
  private lastCommitRoot: Uint8Array | undefined;

  constructor(
    readonly stateManager: BatchFlushStateManager,
    private readonly trie: MerklePatriciaTrie,
    private readonly db: SessionTrieDB,
    private readonly nodes: TrieNodeStore,
    private readonly onRelease: (session: TrieStateSession, root: Uint8Array) => void,
  ) {}

  /**
   * Flushes the caches into the trie and returns the root and the writes since the previous commit.
   * The session stays usable: the next block can run on top, reading these writes from memory,
   * as long as they are persisted before (or in the same batch as) that block's writes.
   */
  async commit(): Promise<StateCommit> {
    if (this.trie.hasCheckpoints()) {
      throw new StateError({code: StateErrorCode.CHECKPOINT_OPEN}, "commit the state manager's checkpoints first");
    }
    await this.stateManager.flush();
    const root = Uint8Array.from(this.trie.root());
    const entries = this.db.takeWrites(root);
    this.nodes.remember(entries);
    this.lastCommitRoot = root;
    const writes = entries.map(([key, value]) => trieWrite(key, value));
    const preimages = this.stateManager.preimages;
    if (preimages !== undefined && preimages.size > 0) {
      writes.push(...preimageWrites(preimages));
      preimages.clear();
    }
    return {root, writes};
  }

  release(): void {
    if (this.lastCommitRoot && !this.trie.hasCheckpoints()) this.onRelease(this, this.lastCommitRoot);
  }

  /** Reused after its writes were persisted: drop the overlay's copies, the store serves them now. */
  forgetPersisted(): void {
    this.db.forgetPersisted();
  }
}

/** The `preimage` bucket's writes of the keys a flush noted (hash hex -> address or slot). */
export function preimageWrites(preimages: ReadonlyMap<string, Uint8Array>): BatchOp[] {
  const writes: BatchOp[] = [];
  for (const [hashHex, key] of preimages) {
    writes.push({type: "put", key: bucketKey(Bucket.preimage, hexToBytes(hashHex)), value: key});
  }
  return writes;
}
