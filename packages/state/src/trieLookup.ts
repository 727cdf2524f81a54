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
  let walk = startWalk(nodes, root, key, decoded);
  while (walk.missing !== undefined) walk = walkInMemory(nodes, await storedNode(nodes, walk.missing), key, walk.depth);
  return walk.value;
}

/** What `lookupTrieValueInMemory` answers when the walk needs a node that is not in memory. */
export const NOT_IN_MEMORY: unique symbol = Symbol("not in memory");

/**
 * `lookupTrieValue` without waiting: the value (or undefined when absent) when every node on the
 * key's path is in memory, else `NOT_IN_MEMORY`. A reader asks this before a source that must wait
 * (the flat state: a store read), so a hot trie answers with no promise at all.
 */
export function lookupTrieValueInMemory(
  nodes: TrieNodeSource,
  root: Uint8Array,
  key: Uint8Array,
  decoded?: DecodedTop,
): Uint8Array | undefined | typeof NOT_IN_MEMORY {
  const walk = startWalk(nodes, root, key, decoded);
  return walk.missing === undefined ? walk.value : NOT_IN_MEMORY;
}

/** Where a walk stands: its answer, or the node it needs next and the key's depth there. */
type Walk = {missing?: undefined; value: Uint8Array | undefined} | {missing: Uint8Array; depth: number};

function startWalk(nodes: TrieNodeSource, root: Uint8Array, key: Uint8Array, decoded?: DecodedTop): Walk {
  if (equalBytes(root, EMPTY_TRIE_ROOT)) return {value: undefined};
  let start = root;
  let depth = 0;
  const descent = decoded?.descend(root, key);
  if (descent !== undefined) {
    if (descent.found) return {value: descent.value};
    start = descent.hash;
    depth = descent.depth;
  }
  const cached = nodes.cachedNode(start);
  return cached === undefined ? {missing: start, depth} : walkInMemory(nodes, cached, key, depth);
}

/** Walks down from the node `bytes` (at the key's nibble `depth`) as far as the nodes in memory go. */
function walkInMemory(nodes: TrieNodeSource, bytes: Uint8Array, key: Uint8Array, depth: number): Walk {
  const nibbles = key.length * 2;
  let items = rlpListItems(bytes);
  for (;;) {
    let next: RlpItem;
    if (items.length === 17) {
      if (depth === nibbles) return {value: valueItem(bytes, items[16] as RlpItem)};
      next = items[nibbleAt(key, depth++)] as RlpItem;
    } else {
      const [path, second] = items as [RlpItem, RlpItem];
      const matched = matchPath(bytes, path, key, depth);
      if (matched < 0) return {value: undefined};
      depth += matched;
      // Hex-prefix encoding: flag nibble 2 or 3 for a leaf.
      if ((bytes[path.start] as number) >> 4 >= 2) {
        return {value: depth === nibbles ? valueItem(bytes, second) : undefined};
      }
      next = second;
    }
    if (next.list) {
      // A child shorter than 32 bytes is embedded in its parent.
      items = rlpItemsOf(bytes, next);
    } else if (next.end === next.start) {
      return {value: undefined};
    } else {
      const hash = bytes.subarray(next.start, next.end);
      const child = nodes.cachedNode(hash);
      if (child === undefined) return {missing: hash, depth};
      bytes = child;
      items = rlpListItems(bytes);
    }
  }
}

/** The encoded node under `hash` (a node missing from the store is the source's error to throw). */
async function storedNode(nodes: TrieNodeSource, hash: Uint8Array): Promise<Uint8Array> {
  const encoded = await nodes.node(hash);
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
