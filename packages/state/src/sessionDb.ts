import type {BatchDBOp, DB} from "@ethereumjs/util";
import type {TrieNodeStore} from "./nodeStore.ts";
import {reachableEntries} from "./reachable.ts";

/**
 * The ethereumjs `DB` of one session: trie writes go to an in-memory overlay, never to the store,
 * and the session's reads see the overlay first. `takeWrites()` hands the writes made since the
 * previous call that the new root references to the caller's batch; they keep being served from
 * memory until the session is dropped, so the next block can run on top before they are persisted.
 */
export class SessionTrieDB implements DB<string, string | Uint8Array> {
  /** Written since the last `takeWrites()`. */
  private pending = new Map<string, Uint8Array>();
  /** Returned by earlier `takeWrites()` calls, possibly not persisted yet. */
  private readonly taken = new Map<string, Uint8Array>();
  /** Written but unreferenced at the last `takeWrites()`: still readable, written if referenced later. */
  private readonly orphans = new Map<string, Uint8Array>();
  /**
   * Keys this session read through the node store. The session only follows references from its
   * stored root, so these are stored (even when the shared cache answered): rewriting them is redundant.
   */
  private readonly fromStore = new Set<string>();

  constructor(private readonly nodes: TrieNodeStore) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    const own = this.pending.get(key) ?? this.taken.get(key) ?? this.orphans.get(key);
    if (own !== undefined) return own;
    const value = await this.nodes.get(key);
    if (value !== undefined) this.fromStore.add(key);
    return value;
  }

  /** The entry when it is in memory (this session's or the shared node cache), without waiting; undefined otherwise. */
  cached(key: string): Uint8Array | undefined {
    return this.pending.get(key) ?? this.taken.get(key) ?? this.orphans.get(key) ?? this.nodes.cached(key);
  }

  async put(key: string, value: string | Uint8Array): Promise<void> {
    // ethereumjs's CheckpointDB writes back every node it read inside a checkpoint; keys are
    // content hashes, so a node read from the store or already handed out needs no second write.
    if (this.fromStore.has(key) || this.taken.has(key)) return;
    this.pending.set(key, toBytes(value));
  }

  /** Ignored: nodes are content-addressed and shared between roots; the chain's state collector deletes what no kept root reaches. */
  async del(_key: string): Promise<void> {}

  async batch(ops: BatchDBOp<string, string | Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === "put") await this.put(op.key, op.value);
  }

  /** Storage tries are shallow copies of the account trie: they share this session's overlay. */
  shallowCopy(): SessionTrieDB {
    return this;
  }

  async open(): Promise<void> {}

  /**
   * The entries written since the previous call that the state at `root` references, as
   * [key hex, value] from the root down; the others are kept as orphans. All stay readable here.
   */
  takeWrites(root: Uint8Array): [string, Uint8Array][] {
    const reached = reachableEntries(root, [this.pending, this.orphans]);
    for (const [key, value] of this.pending) if (!reached.has(key)) this.orphans.set(key, value);
    for (const [key, value] of reached) {
      this.orphans.delete(key);
      this.taken.set(key, value);
    }
    this.pending = new Map();
    return [...reached];
  }

  /** Everything taken so far is persisted: serve it from the store, and forget what was never referenced. */
  forgetPersisted(): void {
    this.taken.clear();
    this.orphans.clear();
    this.fromStore.clear();
  }
}

/** The trie is created with
 `ValueEncoding.Bytes`, so values arrive as bytes. */
function toBytes(value: string | Uint8Array): Uint8Array {
  if (typeof value === "string") throw new TypeError("state trie values must be bytes (ValueEncoding.Bytes)");
  return value;
}
