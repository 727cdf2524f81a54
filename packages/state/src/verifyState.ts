/**
 * A full walk of the state at one root, for `xchain db verify` and `xchain db repair`: every trie
 * node of the account trie and of every storage trie, and every contract code, is read from the
 * store and checked against the hash it is stored and referenced under. The first problem ends the
 * walk. Costs one store read and one keccak per node; nodes shared by several tries (equal storage)
 * are walked once. A forked state's delta trie (docs/architecture.md, "The forked state") is walked
 * alike: its marker leaf and tombstones are not accounts, and the code of its base's accounts is
 * the base's, not stored.
 */
import {Bucket, type KeyValueStore} from "@xchain/db";
import {bytesToHex, concatBytes, equalBytes, keccak256} from "@xchain/utils";
import {type RlpItem, rlpItemsOf, rlpListItems} from "./rlpItems.ts";
import {EMPTY_CODE_HASH, EMPTY_TRIE_ROOT} from "./trie.ts";

/** ethereumjs's CODEHASH_PREFIX ("c"), which contract code keys start with. */
const CODE_PREFIX = Uint8Array.of(0x63);

/** What the walk found: counts, and the first damage if any. */
export interface StateVerification {
  /** Trie nodes read and found whole (embedded nodes are not counted). */
  nodes: number;
  /** Accounts met in the account trie. */
  accounts: number;
  /** Contract codes read. */
  codes: number;
  /** The bytes of the nodes and codes read (values only, keys not counted): the live state's size. */
  bytes: number;
  /** Set when the state is a fork's delta trie (its fork marker leaf was met). */
  forked?: true;
  /** The first missing or damaged entry, if any. */
  damage?: StateDamage;
}

export interface StateDamage {
  /** The store key (hex) of the entry: a node hash, or "63" + a code hash. */
  key: string;
  problem: "missing" | "hash mismatch" | "undecodable" | "unreadable";
  /** For "unreadable": what the store reported (LevelDB's checksum failure). */
  reason?: string;
}

/** Which trie a node belongs to: the account trie's leaves are accounts, a storage trie's are slot values. */
export enum TrieKind {
  Account,
  Storage,
}

/** Walks the whole state at `root` (see the file comment); `signal` stops it between nodes. */
export async function verifyState(
  store: KeyValueStore,
  root: Uint8Array,
  signal?: AbortSignal,
): Promise<StateVerification> {
  const result: StateVerification = {nodes: 0, accounts: 0, codes: 0, bytes: 0};
  if (equalBytes(root, EMPTY_TRIE_ROOT)) return result;
  const seen = new Set<string>();
  const codes: Uint8Array[] = [];
  const stack: [Uint8Array, TrieKind][] = [[root, TrieKind.Account]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    signal?.throwIfAborted();
    const [hash, kind] = next;
    const key = bytesToHex(hash);
    if (seen.has(key)) continue;
    seen.add(key);
    const node = await store.get(Bucket.stateTrie, hash);
    if (node === undefined) return {...result, damage: {key, problem: "missing"}};
    if (!equalBytes(keccak256(node), hash)) return {...result, damage: {key, problem: "hash mismatch"}};
    result.nodes++;
    result.bytes += node.length;
    try {
      pushChildren(node, rlpListItems(node), kind, stack, codes, result);
    } catch {
      return {...result, damage: {key, problem: "undecodable"}};
    }
  }
  const seenCodes = new Set<string>();
  for (const codeHash of codes) {
    const key = `63${bytesToHex(codeHash)}`;
    if (seenCodes.has(key)) continue;
    seenCodes.add(key);
    signal?.throwIfAborted();
    const code = await store.get(Bucket.stateTrie, concatBytes(CODE_PREFIX, codeHash));
    // A forked state stores only the code it deployed itself: the rest is its base's.
    if (code === undefined && result.forked === true) continue;
    if (code === undefined) return {...result, damage: {key, problem: "missing"}};
    if (!equalBytes(keccak256(code), codeHash)) return {...result, damage: {key, problem: "hash mismatch"}};
    result.codes++;
    result.bytes += code.length;
  }
  return result;
}

/**
 * What a stored trie node references: its children by hash (embedded ones walked in place) and, for
 * account leaves, their storage roots and code hashes. Throws RangeError for a node that does not decode.
 */
export function nodeReferences(
  node: Uint8Array,
  kind: TrieKind,
): {children: [Uint8Array, TrieKind][]; codes: Uint8Array[]} {
  const children: [Uint8Array, TrieKind][] = [];
  const codes: Uint8Array[] = [];
  pushChildren(node, rlpListItems(node), kind, children, codes, {nodes: 0, accounts: 0, codes: 0, bytes: 0});
  return {children, codes};
}

/** Pushes a node's children by hash, walking embedded children in place; account leaves add their storage root and code. */
function pushChildren(
  node: Uint8Array,
  items: RlpItem[],
  kind: TrieKind,
  stack: [Uint8Array, TrieKind][],
  codes: Uint8Array[],
  result: StateVerification,
): void {
  if (items.length === 17) {
    for (let i = 0; i < 16; i++) pushChild(node, items[i] as RlpItem, kind, stack, codes, result);
    return;
  }
  if (items.length !== 2) throw new RangeError("a trie node has 2 or 17 items");
  const [path, value] = items as [RlpItem, RlpItem];
  // Hex-prefix encoding: the first nibble is 2 or 3 for a leaf, 0 or 1 for an extension.
  const leaf = (node[path.start] as number) >> 4 >= 2;
  if (!leaf) {
    pushChild(node, value, kind, stack, codes, result);
  } else if (kind === TrieKind.Account) {
    const account = node.subarray(value.start, value.end);
    const fields = rlpListItems(account);
    // A forked state's fork marker ([base id]) and account tombstones ([]) (fork/deltaEncoding.ts).
    if (fields.length === 1) result.forked = true;
    if (fields.length <= 1) return;
    result.accounts++;
    if (fields.length !== 4) throw new RangeError("an account has 4 fields");
    const storageRoot = account.slice((fields[2] as RlpItem).start, (fields[2] as RlpItem).end);
    const codeHash = account.slice((fields[3] as RlpItem).start, (fields[3] as RlpItem).end);
    if (storageRoot.length !== 32 || codeHash.length !== 32) throw new RangeError("an account's hashes are 32 bytes");
    if (!equalBytes(storageRoot, EMPTY_TRIE_ROOT)) stack.push([storageRoot, TrieKind.Storage]);
    if (!equalBytes(codeHash, EMPTY_CODE_HASH)) codes.push(codeHash);
  }
}

/** A child: by its 32-byte hash, embedded (a list shorter than 32 bytes, walked at once), or empty. */
function pushChild(
  node: Uint8Array,
  item: RlpItem,
  kind: TrieKind,
  stack: [Uint8Array, TrieKind][],
  codes: Uint8Array[],
  result: StateVerification,
): void {
  if (item.list) {
    pushChildren(node, rlpItemsOf(node, item), kind, stack, codes, result);
  } else if (item.end - item.start === 32) {
    stack.push([node.slice(item.start, item.end), kind]);
  } else if (item.end !== item.start) {
    throw new RangeError("a child reference is a 32-byte hash or an embedded node");
  }
}
