import {Buffer} from "node:buffer";
import {type RlpItem, rlpListItems} from "./rlpItems.ts";

/** Hex of ethereumjs's CODEHASH_PREFIX ("c"), which contract code keys start with. */
const CODE_KEY_PREFIX = "63";

enum Kind {
  /** A node of the account trie: its leaves are accounts. */
  AccountNode,
  /** A node of a storage trie: its leaves are slot values. */
  StorageNode,
  /** Contract code. */
  Code,
}

/**
 * The session-produced entries (trie nodes of the account and storage tries, contract code) that
 * the state at `root` references, in depth-first order from the root. `produced` holds the entries
 * the session wrote and has not handed out (the first map that has a key answers); the walk stops
 * at any other key, which is stored already or was handed out by an earlier commit.
 *
 * A flush writes only what its new root references, but not every write a session makes is still
 * referenced at commit: nodes of an earlier flush in the same commit (a state root read before the
 * end) that a later one replaced, and a trie changed without the batch flush (the stock MPT writes
 * the whole path of every update). Those need no storing.
 */
export function reachableEntries(
  root: Uint8Array,
  produced: readonly ReadonlyMap<string, Uint8Array>[],
): Map<string, Uint8Array> {
  const reached = new Map<string, Uint8Array>();
  const walk: Walk = {stack: [[hex(root), Kind.AccountNode]], prefixes: new Set()};
  for (const entries of produced) for (const keyHex of entries.keys()) walk.prefixes.add(hexPrefixKey(keyHex));
  for (let next = walk.stack.pop(); next !== undefined; next = walk.stack.pop()) {
    const [keyHex, kind] = next;
    if (reached.has(keyHex)) continue;
    let value: Uint8Array | undefined;
    for (let i = 0; value === undefined && i < produced.length; i++) value = produced[i]?.get(keyHex);
    if (value === undefined) continue;
    reached.set(keyHex, value);
    if (kind !== Kind.Code) pushReferences(value, kind, walk);
  }
  return reached;
}

/**
 * The walk's stack, and the first four bytes (as an unsigned number) of every produced key: most
 * children a written node references are stored nodes, and this filter turns them away without
 * the hex string and map lookup a key costs.
 */
interface Walk {
  stack: [string, Kind][];
  prefixes: Set<number>;
}

/** The first four bytes of a key given in hex, as `bytesPrefixKey` reads them (a false match only costs a lookup). */
function hexPrefixKey(keyHex: string): number {
  // Lower-case hex digits by character code, without the substring and parse of Number.parseInt.
  let key = 0;
  for (let i = 0; i < 8; i++) {
    const c = keyHex.charCodeAt(i);
    key = key * 16 + (c < 0x3a ? c - 0x30 : c - 0x57);
  }
  return key;
}

/** The four bytes of `bytes` from `at`, as an unsigned number. */
function bytesPrefixKey(bytes: Uint8Array, at: number): number {
  return (
    (((bytes[at] as number) << 24) |
      ((bytes[at + 1] as number) << 16) |
      ((bytes[at + 2] as number) << 8) |
      (bytes[at + 3] as number)) >>>
    0
  );
}

/** Pushes what a trie node references by hash: children, and for an account leaf its storage root and code. */
function pushReferences(node: Uint8Array, kind: Kind, walk: Walk): void {
  const items = rlpListItems(node);
  if (items.length === 17) {
    for (let i = 0; i < 16; i++) pushHash(node, items[i] as RlpItem, kind, walk);
    return;
  }
  const [path, value] = items as [RlpItem, RlpItem];
  // Hex-prefix encoding: the first nibble is 2 or 3 for a leaf, 0 or 1 for an extension.
  const leaf = (node[path.start] as number) >> 4 >= 2;
  if (!leaf) {
    pushHash(node, value, kind, walk);
  } else if (kind === Kind.AccountNode) {
    const account = node.subarray(value.start, value.end);
    const [, , storageRoot, codeHash] = rlpListItems(account) as RlpItem[];
    pushHash(account, storageRoot as RlpItem, Kind.StorageNode, walk);
    const code = codeHash as RlpItem;
    walk.stack.push([CODE_KEY_PREFIX + hex(account.subarray(code.start, code.end)), Kind.Code]);
  }
}

/** Lower-case hex; Node's native encoder, several times faster than a JS loop for the many children a walk looks at. */
function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("hex");
}

/**
 * A child given by its 32-byte hash, when it may be a produced one; shorter children are embedded
 * in their parent and reference nothing.
 */
function pushHash(bytes: Uint8Array, item: RlpItem, kind: Kind, walk: Walk): void {
  if (item.list || item.end - item.start !== 32 || !walk.prefixes.has(bytesPrefixKey(bytes, item.start))) return;
  walk.stack.push([hex(bytes.subarray(item.start, item.end)), kind]);
}
