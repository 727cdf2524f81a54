import type {DB} from "@ethereumjs/util";
import {StateError, StateErrorCode} from "./errors.ts";
import type {TrieNodeStore} from "./nodeStore.ts";

/** The ethereumjs `DB` of a `StateReader`: reads through the node store, refuses every write. */
export class ReadOnlyTrieDB implements DB<string, string | Uint8Array> {
  constructor(private readonly nodes: TrieNodeStore) {}

  get(key: string): Promise<Uint8Array | undefined> {
    return this.nodes.get(key);
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
