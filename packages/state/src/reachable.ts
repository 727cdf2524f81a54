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
 * the state at `root` references, in depth-first order from the root. `produced` answers for the
 * entries the session wrote and has not handed out; the walk stops at any other key, which is
 * stored already or was handed out by an earlier commit.
 *
 * ethereumjs writes the whole path of every single trie update, so a block's writes include the
 * intermediate nodes that later updates of the same block replaced (about 40% of them for blocks
 * of transfers, 70% for a genesis); those are never referenced and need no storing.
 */
export function reachableEntries(
  root: Uint8Array,
  produced: (keyHex: string) => Uint8Array | undefined,
): Map<string, Uint8Array> {
  const reached = new Map<string, Uint8Array>();
  const stack: [string, Kind][] = [[hex(root), Kind.AccountNode]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [keyHex, kind] = next;
    const value = produced(keyHex);
    if (value === undefined || reached.has(keyHex)) continue;
    reached.set(keyHex, value);
    if (kind !== Kind.Code) pushReferences(value, kind, stack);
  }
  return reached;
}

/** Pushes what a trie node references by hash: children, and for an account leaf its storage root and code. */
function pushReferences(node: Uint8Array, kind: Kind, stack: [string, Kind][]): void {
  const items = rlpListItems(node);
  if (items.length === 17) {
    for (let i = 0; i < 16; i++) pushHash(node, items[i] as RlpItem, kind, stack);
    return;
  }
  const [path, value] = items as [RlpItem, RlpItem];
  // Hex-prefix encoding: the first nibble is 2 or 3 for a leaf, 0 or 1 for an extension.
  const leaf = (node[path.start] as number) >> 4 >= 2;
  if (!leaf) {
    pushHash(node, value, kind, stack);
  } else if (kind === Kind.AccountNode) {
    const account = node.subarray(value.start, value.end);
    const [, , storageRoot, codeHash] = rlpListItems(account) as RlpItem[];
    pushHash(account, storageRoot as RlpItem, Kind.StorageNode, stack);
    const code = codeHash as RlpItem;
    stack.push([CODE_KEY_PREFIX + hex(account.subarray(code.start, code.end)), Kind.Code]);
  }
}

/** Lower-case hex; Node's native encoder, several times faster than a JS loop for the many children a walk looks at. */
function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("hex");
}

/** A child given by its 32-byte hash; shorter children are embedded in their parent and reference nothing. */
function pushHash(bytes: Uint8Array, item: RlpItem, kind: Kind, stack: [string, Kind][]): void {
  if (!item.list && item.end - item.start === 32) stack.push([hex(bytes.subarray(item.start, item.end)), kind]);
}
