import {bytesToHex, equalBytes} from "@xchain/utils";
import {StateError, StateErrorCode} from "./errors.ts";
import {type RlpItem, rlpItemsOf, rlpListItems} from "./rlpItems.ts";
import {EMPTY_TRIE_ROOT} from "./trie.ts";

/** The node store a lookup reads from, keyed by node hash (an MPT's `database()`). */
export interface TrieNodeSource {
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
}

/**
 * The value under `key` (already hashed: the trie's path) in the Merkle-Patricia trie at `root`,
 * or undefined; what `MerklePatriciaTrie.get` answers, without its walk controller and without
 * decoding the nodes on the way (each is read as RLP ranges). The value is a copy, so that keeping
 * it does not keep its node alive. A node missing from `db` is NODE_MISSING.
 */
export async function trieLookup(
  db: TrieNodeSource,
  root: Uint8Array,
  key: Uint8Array,
): Promise<Uint8Array | undefined> {
  if (equalBytes(root, EMPTY_TRIE_ROOT)) return undefined;
  const length = key.length * 2;
  let bytes = await load(db, root);
  let items = rlpListItems(bytes);
  let depth = 0;
  for (;;) {
    let next: RlpItem;
    if (items.length === 17) {
      if (depth === length) return leafValue(bytes, items[16] as RlpItem);
      next = items[nibbleAt(key, depth)] as RlpItem;
      depth++;
    } else {
      const [path, second] = items as [RlpItem, RlpItem];
      // Hex-prefix encoding: flag nibble 2 or 3 for a leaf, odd when its low bit is set.
      const flag = (bytes[path.start] as number) >> 4;
      let i = flag & 1 ? 1 : 2;
      for (const end = (path.end - path.start) * 2; i < end; i++, depth++) {
        if (depth === length || nibbleOf(bytes, path.start, i) !== nibbleAt(key, depth)) return undefined;
      }
      if (flag >= 2) return depth === length ? leafValue(bytes, second) : undefined;
      next = second;
    }
    if (next.list) {
      // A child shorter than 32 bytes is embedded in its parent.
      items = rlpItemsOf(bytes, next);
      continue;
    }
    if (next.end === next.start) return undefined;
    bytes = await load(db, bytes.subarray(next.start, next.end));
    items = rlpListItems(bytes);
  }
}

async function load(db: TrieNodeSource, hash: Uint8Array): Promise<Uint8Array> {
  const node = await db.get(hash);
  if (node === undefined) {
    const key = bytesToHex(hash);
    throw new StateError({code: StateErrorCode.NODE_MISSING, key}, `state entry ${key} is missing`);
  }
  return node;
}

function leafValue(bytes: Uint8Array, item: RlpItem): Uint8Array | undefined {
  return item.end === item.start ? undefined : bytes.slice(item.start, item.end);
}

function nibbleAt(key: Uint8Array, index: number): number {
  const byte = key[index >> 1] as number;
  return index & 1 ? byte & 0x0f : byte >> 4;
}

/** Nibble `index` of the bytes from `start` on. */
function nibbleOf(bytes: Uint8Array, start: number, index: number): number {
  const byte = bytes[start + (index >> 1)] as number;
  return index & 1 ? byte & 0x0f : byte >> 4;
}
