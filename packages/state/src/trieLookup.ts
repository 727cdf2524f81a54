import {decodeRlp} from "@xchain/primitives";
import {bytesToHex, equalBytes} from "@xchain/utils";
import {StateError, StateErrorCode} from "./errors.ts";
import {EMPTY_TRIE_ROOT} from "./trie.ts";

/** Where a lookup finds the stored nodes, by their hash. */
export interface TrieNodeSource {
  /** The node when it is at hand in memory, without waiting; undefined otherwise. */
  cachedNode(hash: Uint8Array): Uint8Array | undefined;
  /** The node from memory or the store. */
  node(hash: Uint8Array): Promise<Uint8Array | undefined>;
}

type RawNode = (Uint8Array | RawNode)[];

/**
 * Decoded nodes by their encoding: a node the node cache hands out again is not decoded again, and
 * an entry goes when the cache lets go of the encoding.
 */
const decodedNodes = new WeakMap<Uint8Array, RawNode>();

/**
 * The value stored under `key` (the trie key itself: the hashed address or slot of a state trie) in
 * the Merkle-Patricia trie at `root`, or undefined when absent. Reads what `MerklePatriciaTrie.get`
 * reads, walking the key's nibbles down from the root with no walker, queue or promise per node: a
 * node in memory is used at once, only a node from the store is awaited. The value belongs to the
 * decoded node (a view of the node's encoding), which later lookups share: callers decode it, must not
 * change it, and copy it to keep it.
 */
export async function lookupTrieValue(
  nodes: TrieNodeSource,
  root: Uint8Array,
  key: Uint8Array,
): Promise<Uint8Array | undefined> {
  if (equalBytes(root, EMPTY_TRIE_ROOT)) return undefined;
  let node = await storedNode(nodes, root);
  const nibbles = key.length * 2;
  let depth = 0;
  for (;;) {
    let next: Uint8Array | RawNode;
    if (node.length === 17) {
      if (depth === nibbles) return nonEmpty(node[16] as Uint8Array);
      next = node[nibbleAt(key, depth++)] as Uint8Array | RawNode;
    } else {
      const [encodedPath, second] = node as [Uint8Array, Uint8Array | RawNode];
      const matched = matchPath(encodedPath, key, depth);
      if (matched < 0) return undefined;
      depth += matched;
      if (isLeaf(encodedPath)) return depth === nibbles ? (second as Uint8Array) : undefined;
      next = second;
    }
    if (next instanceof Uint8Array) {
      if (next.length === 0) return undefined;
      node = await storedNode(nodes, next);
    } else {
      node = next;
    }
  }
}

/** The decoded node under `hash` (a node missing from the store is the source's error to throw). */
async function storedNode(nodes: TrieNodeSource, hash: Uint8Array): Promise<RawNode> {
  const encoded = nodes.cachedNode(hash) ?? (await nodes.node(hash));
  if (encoded === undefined) {
    const keyHex = bytesToHex(hash);
    throw new StateError({code: StateErrorCode.NODE_MISSING, key: keyHex}, `state entry ${keyHex} is missing`);
  }
  let decoded = decodedNodes.get(encoded);
  if (decoded === undefined) {
    // Views of `encoded`, not copies: the entry lives no longer than the encoding it is keyed by.
    decoded = decodeRlp(encoded) as RawNode;
    decodedNodes.set(encoded, decoded);
  }
  return decoded;
}

function nibbleAt(key: Uint8Array, index: number): number {
  const byte = key[index >> 1] as number;
  return index & 1 ? byte & 0x0f : byte >> 4;
}

/** Whether a hex-prefix encoded path ends in a leaf (flag nibble 2 or 3). */
function isLeaf(encodedPath: Uint8Array): boolean {
  return (encodedPath[0] as number) >> 4 >= 2;
}

/**
 * The length of a hex-prefix encoded path when the key's nibbles from `depth` on start with it, or
 * -1. The path's first nibble (when its length is odd) shares the flag byte.
 */
function matchPath(encodedPath: Uint8Array, key: Uint8Array, depth: number): number {
  const odd = ((encodedPath[0] as number) >> 4) & 1;
  const length = (encodedPath.length - 1) * 2 + odd;
  if (depth + length > key.length * 2) return -1;
  let at = depth;
  if (odd && ((encodedPath[0] as number) & 0x0f) !== nibbleAt(key, at++)) return -1;
  for (let i = 1; i < encodedPath.length; i++) {
    const byte = encodedPath[i] as number;
    if (byte >> 4 !== nibbleAt(key, at++) || (byte & 0x0f) !== nibbleAt(key, at++)) return -1;
  }
  return length;
}

function nonEmpty(value: Uint8Array): Uint8Array | undefined {
  return value.length === 0 ? undefined : value;
}
