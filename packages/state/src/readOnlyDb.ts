import type {DB} from "@ethereumjs/util";
import {bytesToHex} from "@xchain/utils";
import {StateError, StateErrorCode} from "./errors.ts";
import type {TrieNodeStore} from "./nodeStore.ts";
import type {TrieNodeSource} from "./trieLookup.ts";

/**
 * The ethereumjs `DB` of a `StateReader`, and its node source for `lookupTrieValue`: reads through
 * the node store (after `unpersisted`, the nodes of a state that is computed but not stored),
 * refuses every write.
 */
export class ReadOnlyTrieDB implements DB<string, string | Uint8Array>, TrieNodeSource {
  constructor(
    private readonly nodes: TrieNodeStore,
    private readonly unpersisted?: ReadonlyMap<string, Uint8Array>,
  ) {}

  get(key: string): Promise<Uint8Array | undefined> {
    const own = this.unpersisted?.get(key);
    return own === undefined ? this.nodes.get(key) : Promise.resolve(own);
  }

  /** The entry under `key`, undefined when it is not stored (see `TrieNodeStore.find`). */
  find(key: string): Promise<Uint8Array | undefined> {
    const own = this.unpersisted?.get(key);
    return own === undefined ? this.nodes.find(key) : Promise.resolve(own);
  }

  cachedNode(hash: Uint8Array): Uint8Array | undefined {
    const keyHex = bytesToHex(hash);
    return this.unpersisted?.get(keyHex) ?? this.nodes.cached(keyHex);
  }

  node(hash: Uint8Array): Promise<Uint8Array | undefined> {
    return this.nodes.fromStore(bytesToHex(hash));
  }

  put(): Promise<void> {
    return refuse("put");
  }

  del(): Promise<void> {
    return refuse("del");
  }

  batch(): Promise<void> {
    return refuse("batch");
  }

  shallowCopy(): ReadOnlyTrieDB {
    return this;
  }

  async open(): Promise<void> {}
}

async function refuse(operation: string): Promise<never> {
  throw new StateError({code: StateErrorCode.READ_ONLY, operation}, `state readers cannot ${operation}`);
}
