import {bytesToHex, equalBytes} from "@xchain/utils";
import type {DecodedTop} from "./decodedTop.ts";
import {StateError, StateErrorCode} from "./errors.ts";
import {type RlpItem, rlpItemsOf, rlpListItems} from "./rlpItems.ts";
import {EMPTY_TRIE_ROOT} from "./trie.ts";

/** Where a lookup finds the stored nodes, by their hash. */
export interface TrieNodeSource {
  /** The node when it is at hand in memory, without waiting; undefined otherwise. */
  cachedNode(hash: Uint8Array): Uint8Array | undefined;
  /** The node from memory or the store. */
  node(hash: Uint8Array): Promise<Uint8Array | undefined>;
  /** Several nodes in one store request, when the source can (walks that read whole subtries). */
  manyNodes?(hashes: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]>;
}

/**
 * The value stored under `key` (the trie key itself: the hashed address or slot of a state trie) in
 * the Merkle-Patricia trie at `root`, or undefined when absent: what `MerklePatriciaTrie.get`
 * answers, walking the key's nibbles down from the root with no walker, queue or promise per node
 * and without decoding the nodes on the way (each is read as RLP ranges, nothing copied but the
 * value). A node in memory is used at once, only a node from the store is awaited. With
 * `decoded`, the trie's upper levels kept decoded by its last batch flush answer first.
 */
export async function lookupTrieValue(
  nodes: TrieNodeSource,
  root: Uint8Array,
  key: Uint8Array,
  decoded?: DecodedTop,
): Promise<Uint8Array | undefined> {
  if (equalBytes(root, EMPTY_TRIE_ROOT)) return undefined;
  const nibbles = key.length * 2;
  let start = root;
  let depth = 0;
  const descent = decoded?.descend(root, key);
  if (descent !== undefined) {
    if (descent.found) return descent.value;
    start = descent.hash;
    depth = descent.depth;
  }
  let bytes = await storedNode(nodes, start);
  let items = rlpListItems(bytes);
  for (;;) {
    let next: RlpItem;
    if (items.length === 17) {
      if (depth === nibbles) return valueItem(bytes, items[16] as RlpItem);
      next = items[nibbleAt(key, depth++)] as RlpItem;
    } else {
      const [path, second] = items as [RlpItem, RlpItem];
      const matched = matchPath(bytes, path, key, depth);
      if (matched < 0) return undefined;
      depth += matched;
      // Hex-prefix encoding: flag nibble 2 or 3 for a leaf.
      if ((bytes[path.start] as number) >> 4 >= 2) return depth === nibbles ? valueItem(bytes, second) : undefined;
      next = second;
    }
    if (next.list) {
      // A child shorter than 32 bytes is embedded in its parent.
      items = rlpItemsOf(bytes, next);
    } else if (next.end === next.start) {
      return undefined;
    } else {
      bytes = await storedNode(nodes, bytes.subarray(next.start, next.end));
      items = rlpListItems(bytes);
    }
  }
}

/** The encoded node under `hash` (a node missing from the store is the source's error to throw). */
async function storedNode(nodes: TrieNodeSource, hash: Uint8Array): Promise<Uint8Array> {
  const encoded = nodes.cachedNode(hash) ?? (await nodes.node(hash));
  if (encoded === undefined) {
    const keyHex = bytesToHex(hash);
    throw new StateError({code: StateErrorCode.NODE_MISSING, key: keyHex}, `state entry ${keyHex} is missing`);
  }
  return encoded;
}

/** A copy of a value item, so that keeping it does not keep its node alive; undefined when empty. */
function valueItem(bytes: Uint8Array, item: RlpItem): Uint8Array | undefined {
  return item.end === item.start ? undefined : bytes.slice(item.start, item.end);
}

function nibbleAt(key: Uint8Array, index: number): number {
  const byte = key[index >> 1] as number;
  return index & 1 ? byte & 0x0f : byte >> 4;
}

/**
 * The length of the hex-prefix encoded path `path` (an item of `bytes`) when the key's nibbles from
 * `depth` on start with it, or -1. The path's first nibble (when its length is odd) shares the flag byte.
 */
function matchPath(bytes: Uint8Array, path: RlpItem, key: Uint8Array, depth: number): number {
  const flag = bytes[path.start] as number;
  const odd = (flag >> 4) & 1;
  const length = (path.end - path.start - 1) * 2 + odd;
  if (depth + length > key.length * 2) return -1;
  let at = depth;
  if (odd && (flag & 0x0f) !== nibbleAt(key, at++)) return -1;
  for (let i = path.start + 1; i < path.end; i++) {
    const byte = bytes[i] as number;
    if (byte >> 4 !== nibbleAt(key, at++) || (byte & 0x0f) !== nibbleAt(key, at++)) return -1;
  }
  return length;
}
