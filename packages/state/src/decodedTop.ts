import {equalBytes} from "@xchain/utils";
import {type KeptTop, Kind, type Ref, type TrieNode} from "./batchTrie.ts";

/** Where a lookup goes on from the kept levels: the value it found (or its absence), or a stored node to read. */
export type TopDescent = {found: true; value: Uint8Array | undefined} | {found: false; hash: Uint8Array; depth: number};

/**
 * The upper levels of one trie kept decoded from one batch flush to the next (docs/performance.md §3).
 * Every block's flush of the account trie, and of a busy contract's storage trie, goes through the same
 * root and upper branches, which the block's execution has just read: kept decoded, neither the
 * flush (`applyTrieWrites`) nor the lookups (`lookupTrieValue`) read and decode them again. Nodes are
 * content-addressed, so the kept nodes serve only the root they hash to. The batch leaves the nodes
 * below `levels` levels by their hash (`TrieBatch.raw`), which bounds the memory to about that many
 * levels (16^0 + ... + 16^(levels-1) nodes; a subtree a split moves one level down keeps its decoded
 * nodes until it changes again).
 */
export class DecodedTop implements KeptTop {
  /** The kept root node, every kept node hashed (a batch's result): the trie at `node.hash`. */
  private node: TrieNode | undefined;

  constructor(readonly levels: number) {}

  /**
   * The kept root node for a batch starting at `root`, handed over: the batch changes nodes in place,
   * so nothing is kept until it ends (`keep`). Undefined when nothing is kept for that root.
   */
  take(root: Uint8Array): TrieNode | undefined {
    const node = this.node;
    this.node = undefined;
    return node?.hash !== undefined && equalBytes(node.hash, root) ? node : undefined;
  }

  /** Keeps a batch's new root node (hashed, as every node under it that is not embedded in its parent). */
  keep(node: TrieNode): void {
    this.node = node;
  }

  /**
   * The kept nodes' answer for `key` in the trie at `root`: the value (or its absence) when the kept
   * levels hold it, else the stored node to go on from and its depth in nibbles; undefined when
   * nothing is kept for `root`.
   */
  descend(root: Uint8Array, key: Uint8Array): TopDescent | undefined {
    let node = this.node;
    if (node?.hash === undefined || !equalBytes(node.hash, root)) return undefined;
    const nibbles = key.length * 2;
    let depth = 0;
    for (;;) {
      let next: Ref;
      if (node.kind === Kind.Branch) {
        if (depth === nibbles) return {found: true, value: keptValue(node.value)};
        next = node.children[nibbleAt(key, depth++)] as Ref;
      } else {
        if (!pathMatches(node.path, key, depth)) return {found: true, value: undefined};
        depth += node.path.length;
        if (node.kind === Kind.Leaf) return {found: true, value: depth === nibbles ? keptValue(node.value) : undefined};
        next = node.child;
      }
      if (next === null) return {found: true, value: undefined};
      if (next instanceof Uint8Array) return {found: false, hash: next, depth};
      node = next;
    }
  }
}

/** A copy of a kept value, as a lookup answers it (undefined when empty). */
function keptValue(value: Uint8Array): Uint8Array | undefined {
  return value.length === 0 ? undefined : value.slice();
}

function nibbleAt(key: Uint8Array, index: number): number {
  const byte = key[index >> 1] as number;
  return index & 1 ? byte & 0x0f : byte >> 4;
}

/** Whether the key's nibbles from `depth` on start with `path`. */
function pathMatches(path: readonly number[], key: Uint8Array, depth: number): boolean {
  if (depth + path.length > key.length * 2) return false;
  for (let i = 0; i < path.length; i++) if (path[i] !== nibbleAt(key, depth + i)) return false;
  return true;
}
