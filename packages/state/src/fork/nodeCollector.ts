import {bytesToHex} from "@xchain/utils";
import type {TrieNodeDB} from "../batchTrie.ts";
import type {ReadOnlyTrieDB} from "../readOnlyDb.ts";

/**
 * The node database of one delta commit: `applyTrieWrites` reads the parent's nodes through
 * `nodes` (stored, or committed but not persisted yet) and its new nodes are collected here,
 * by key hex, for the caller's batch. Nothing is written to the store.
 */
export class NodeCollector implements TrieNodeDB {
  readonly entries = new Map<string, Uint8Array>();

  constructor(private readonly nodes: ReadOnlyTrieDB) {}

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const keyHex = bytesToHex(key);
    return this.entries.get(keyHex) ?? (await this.nodes.get(keyHex));
  }

  async put(key: Uint8Array, value: Uint8Array): Promise<void> {
    this.entries.set(bytesToHex(key), value);
  }
}
