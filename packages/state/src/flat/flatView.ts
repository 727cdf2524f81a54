/**
 * The readers' side of the flat state (docs/operations.md §13): an account or a storage word of the
 * state at one root in one LevelDB read instead of a walk down the trie. Each read fetches the meta
 * record with the entry in one `getMany`, which LevelDB answers from one snapshot: the entry is used
 * only when that very snapshot says the flat state is complete at the reader's root, so a head that
 * moves between two reads can make a read walk the trie, never answer from another state. Any thread
 * may read (call workers share the node's LevelDB); only the chain writes (flatState.ts).
 */
import {Bucket, type KeyValueStore} from "@xchain/db";
import {bytesToHex} from "@xchain/utils";
import {completeAt, describesOther, FLAT_META_KEY} from "./flatMeta.ts";

/** What a read of the flat state answers when it cannot: the reader walks the trie. */
export const NOT_FLAT: unique symbol = Symbol("not served by the flat state");

/** How the state reads of one `StateDatabase` were served: by the flat state or by walking the trie. */
export interface StateReadCounts {
  /** Accounts and storage words read from the flat state. */
  flat: number;
  /** Accounts and storage words read by walking the trie (cache misses of the readers). */
  trie: number;
}

/** What a reader asks first: an entry of the flat state at its root, or NOT_FLAT. */
export interface FlatSource {
  get(key: Uint8Array): Promise<Uint8Array | undefined | typeof NOT_FLAT>;
}

/** The flat state as seen by the readers of one root. */
export class FlatRootView implements FlatSource {
  /** Set once the flat state was seen at another root: the head moved on, reads go to the trie. */
  private retired = false;

  constructor(
    private readonly store: KeyValueStore,
    readonly root: Uint8Array,
    private readonly counts: StateReadCounts,
  ) {}

  /**
   * The value under `key` (the account trie's value for a 32-byte key, the storage trie's for a
   * 64-byte one; undefined when absent) when the flat state is complete at this root, else NOT_FLAT.
   */
  async get(key: Uint8Array): Promise<Uint8Array | undefined | typeof NOT_FLAT> {
    if (this.retired) return NOT_FLAT;
    const [meta, value] = await this.store.getMany(Bucket.flatState, [FLAT_META_KEY, key]);
    if (completeAt(meta, this.root)) {
      this.counts.flat++;
      return value;
    }
    if (describesOther(meta, this.root)) this.retired = true;
    return NOT_FLAT;
  }
}

/**
 * The flat state of a state computed over the flat state's root but not stored (the pending block's,
 * `StateDatabase.stageUnpersisted`): the entries the two states' diff changed, from memory (exact
 * whatever the flat state does), the others from the flat state at that root, while it is there.
 */
export class FlatOverlayView implements FlatSource {
  constructor(
    private readonly changed: ReadonlyMap<string, Uint8Array | undefined>,
    private readonly base: FlatRootView,
    private readonly counts: StateReadCounts,
  ) {}

  async get(key: Uint8Array): Promise<Uint8Array | undefined | typeof NOT_FLAT> {
    const hex = bytesToHex(key);
    if (this.changed.has(hex)) {
      this.counts.flat++;
      return this.changed.get(hex);
    }
    return this.base.get(key);
  }
}
