import {encodeRlp} from "@xchain/primitives";
import {bytesToHex, keccak256} from "@xchain/utils";
import {StateError, StateErrorCode} from "./errors.ts";
import {type RlpItem, rlpItemsOf, rlpListItems} from "./rlpItems.ts";
import {EMPTY_TRIE_ROOT} from "./trie.ts";

/** The node store a batch reads from and writes to, keyed by node hash (an MPT's `database()`). */
export interface TrieNodeDB {
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  put(key: Uint8Array, value: Uint8Array): Promise<void>;
}

/** One write of a batch: the (already hashed) trie key and its new value, undefined or empty to delete. */
export type TrieWrite = readonly [key: Uint8Array, value: Uint8Array | undefined];

/**
 * Applies `writes` (in order; a later write to a key wins) to the Merkle-Patricia trie at `root`
 * and returns the new root. The updates run on decoded nodes in memory and each changed node is
 * encoded and hashed once at the end, instead of once per update as `MerklePatriciaTrie.put`
 * does; only the nodes the new root references are written to `db` (the root always, the others
 * when their encoding is 32 bytes or longer, as the MPT inlines shorter ones). The trie is
 * canonical, so the root equals the one the same writes give through the MPT one by one.
 *
 * With `decoded`, the batch starts from the nodes it kept decoded after the trie's previous batch
 * (when that batch ended at `root`) instead of reading and decoding them again, and leaves it the
 * upper levels of the new trie for the next batch and for lookups (docs/performance.md §3).
 */
export async function applyTrieWrites(
  db: TrieNodeDB,
  root: Uint8Array,
  writes: Iterable<TrieWrite>,
  decoded?: KeptTop,
): Promise<Uint8Array> {
  const batch = new TrieBatch(db, decoded?.levels ?? Number.POSITIVE_INFINITY);
  let top: Ref = equalRoot(root, EMPTY_TRIE_ROOT) ? null : (decoded?.take(root) ?? Uint8Array.from(root));
  for (const [key, value] of writes) {
    const path = toNibbles(key);
    if (value !== undefined && value.length > 0) {
      top = await batch.insert(top, path, 0, value);
    } else {
      const updated = await batch.delete(top, path, 0);
      if (updated !== UNCHANGED) top = updated;
    }
  }
  if (top === null) return EMPTY_TRIE_ROOT;
  if (top instanceof Uint8Array) return top;
  const node = top;
  if (node.hash === undefined) {
    // The root is stored by its hash even when its encoding is shorter than 32 bytes.
    const encoded = encodeRlp(batch.raw(node, 0));
    node.hash = keccak256(encoded);
    batch.writes.push([node.hash, encoded]);
    for (const [key, value] of batch.writes) await db.put(key, value);
  }
  decoded?.keep(node);
  return node.hash;
}

/** Where a trie's batches leave their new upper levels decoded for the next batch (`DecodedTop`). */
export interface KeptTop {
  /** How many levels of the new trie stay decoded; the hashes stand in below. */
  readonly levels: number;
  /** The kept root node when it hashes to `root`, handed over to the batch (which changes it in place). */
  take(root: Uint8Array): TrieNode | undefined;
  /** Keeps the batch's new root node. */
  keep(node: TrieNode): void;
}

interface Leaf {
  kind: Kind.Leaf;
  path: number[];
  value: Uint8Array;
  /** Set while the node is unchanged since it was read (or hashed): its key in the store. */
  hash?: Uint8Array;
}

interface Extension {
  kind: Kind.Extension;
  path: number[];
  child: Ref;
  hash?: Uint8Array;
}

interface Branch {
  kind: Kind.Branch;
  children: Ref[];
  /** Always empty in the state tries (keys of one length), kept for a faithful encoding. */
  value: Uint8Array;
  hash?: Uint8Array;
}

export enum Kind {
  Leaf,
  Extension,
  Branch,
}

export type TrieNode = Leaf | Extension | Branch;

/** A child: absent, a stored node not read yet (its hash), or a node in memory. */
export type Ref = TrieNode | Uint8Array | null;

type RawNode = (Uint8Array | RawNode)[];

const EMPTY = new Uint8Array(0);

/** What `delete` answers when the key was absent, so that nothing on the path is re-hashed. */
const UNCHANGED = Symbol("unchanged");

/** The nodes of one batch in memory, read from the store on first visit. */
class TrieBatch {
  /** [hash, encoding] of every node hashed so far, written when the root is known. */
  readonly writes: [Uint8Array, Uint8Array][] = [];

  /**
   * @param keptLevels the levels of the new trie left decoded (`DecodedTop`): `raw` puts the hash
   * in place of each hashed node below them that it visits, so that they can be freed.
   */
  constructor(
    private readonly db: TrieNodeDB,
    private readonly keptLevels: number,
  ) {}

  async insert(ref: Ref, path: number[], depth: number, value: Uint8Array): Promise<TrieNode> {
    if (ref === null) return {kind: Kind.Leaf, path: path.slice(depth), value};
    const node = await this.load(ref);
    if (node.kind === Kind.Branch) {
      if (depth === path.length) {
        node.value = value;
      } else {
        const index = path[depth] as number;
        node.children[index] = await this.insert(node.children[index] as Ref, path, depth + 1, value);
      }
      node.hash = undefined;
      return node;
    }
    const common = commonPrefix(node.path, path, depth);
    if (node.kind === Kind.Leaf && common === node.path.length && depth + common === path.length) {
      return {kind: Kind.Leaf, path: node.path, value};
    }
    if (node.kind === Kind.Extension && common === node.path.length) {
      node.child = await this.insert(node.child, path, depth + common, value);
      node.hash = undefined;
      return node;
    }
    // The paths part after `common` nibbles: a branch there holds the old node's rest and the new leaf.
    const branch: Branch = {kind: Kind.Branch, children: new Array<Ref>(16).fill(null), value: EMPTY};
    const rest = node.path.slice(common + 1);
    if (common === node.path.length) {
      branch.value = (node as Leaf).value;
    } else {
      const index = node.path[common] as number;
      branch.children[index] =
        node.kind === Kind.Leaf
          ? {kind: Kind.Leaf, path: rest, value: node.value}
          : rest.length === 0
            ? node.child
            : {kind: Kind.Extension, path: rest, child: node.child};
    }
    const at = depth + common;
    if (at === path.length) branch.value = value;
    else branch.children[path[at] as number] = {kind: Kind.Leaf, path: path.slice(at + 1), value};
    if (common === 0) return branch;
    return {kind: Kind.Extension, path: node.path.slice(0, common), child: branch};
  }

  /** The node without the key at `path`; UNCHANGED when the key is absent. */
  async delete(ref: Ref, path: number[], depth: number): Promise<Ref | typeof UNCHANGED> {
    if (ref === null) return UNCHANGED;
    const node = await this.load(ref);
    if (node.kind === Kind.Leaf) {
      const common = commonPrefix(node.path, path, depth);
      return common === node.path.length && depth + common === path.length ? null : UNCHANGED;
    }
    if (node.kind === Kind.Extension) {
      if (commonPrefix(node.path, path, depth) !== node.path.length) return UNCHANGED;
      const updated = await this.delete(node.child, path, depth + node.path.length);
      return updated === UNCHANGED ? UNCHANGED : this.extend(node.path, updated);
    }
    if (depth === path.length) {
      if (node.value.length === 0) return UNCHANGED;
      node.value = EMPTY;
    } else {
      const index = path[depth] as number;
      const updated = await this.delete(node.children[index] as Ref, path, depth + 1);
      if (updated === UNCHANGED) return UNCHANGED;
      node.children[index] = updated;
    }
    node.hash = undefined;
    return this.collapse(node);
  }

  /** A branch left with one entry becomes that entry with its index prepended to the path. */
  private async collapse(branch: Branch): Promise<Ref> {
    let only = -1;
    for (let i = 0; i < 16; i++) {
      if (branch.children[i] === null) continue;
      if (only !== -1 || branch.value.length > 0) return branch;
      only = i;
    }
    if (only === -1) return branch.value.length > 0 ? {kind: Kind.Leaf, path: [], value: branch.value} : null;
    return this.extend([only], branch.children[only] as Ref);
  }

  /** An extension by `path` over `child`, merged with the child when that is a leaf or an extension. */
  private async extend(path: number[], child: Ref): Promise<Ref> {
    if (child === null) return null;
    const node = await this.load(child);
    if (node.kind === Kind.Leaf) return {kind: Kind.Leaf, path: [...path, ...node.path], value: node.value};
    if (node.kind === Kind.Extension) return {kind: Kind.Extension, path: [...path, ...node.path], child: node.child};
    return {kind: Kind.Extension, path, child: node};
  }

  private async load(ref: TrieNode | Uint8Array): Promise<TrieNode> {
    if (!(ref instanceof Uint8Array)) return ref;
    const encoded = await this.db.get(ref);
    if (encoded === undefined) {
      const key = bytesToHex(ref);
      throw new StateError({code: StateErrorCode.NODE_MISSING, key}, `state entry ${key} is missing`);
    }
    const node = decodeNode(encoded, rlpListItems(encoded));
    node.hash = ref;
    return node;
  }

  /**
   * The node's RLP structure, with each child hashed (and queued for writing) or inlined when short;
   * `level` is the node's, the root's 0.
   */
  raw(node: TrieNode, level: number): RawNode {
    if (node.kind === Kind.Leaf) return [hexPrefix(node.path, true), node.value];
    if (node.kind === Kind.Extension) {
      const child = this.reference(node.child, level + 1);
      node.child = this.kept(node.child, level + 1);
      return [hexPrefix(node.path, false), child];
    }
    const raw: RawNode = new Array(17);
    for (let i = 0; i < 16; i++) {
      raw[i] = this.reference(node.children[i] as Ref, level + 1);
      node.children[i] = this.kept(node.children[i] as Ref, level + 1);
    }
    raw[16] = node.value;
    return raw;
  }

  /** What stays in a node's child slot after `raw`: the child's hash in place of a hashed node below the kept levels. */
  private kept(ref: Ref, level: number): Ref {
    return level >= this.keptLevels && ref !== null && !(ref instanceof Uint8Array) && ref.hash !== undefined
      ? ref.hash
      : ref;
  }

  private reference(ref: Ref, level: number): Uint8Array | RawNode {
    if (ref === null) return EMPTY;
    if (ref instanceof Uint8Array) return ref;
    if (ref.hash !== undefined) return ref.hash;
    const raw = this.raw(ref, level);
    const encoded = encodeRlp(raw);
    if (encoded.length < 32) return raw;
    const hash = keccak256(encoded);
    this.writes.push([hash, encoded]);
    ref.hash = hash;
    return hash;
  }
}

/**
 * The node whose items (ranges of `bytes`) are `items`. Paths, values and hashes are views of
 * `bytes`, not copies (the RLP decoder's copies cost more than the rest of a load): a batch's nodes
 * live only while it runs.
 */
function decodeNode(bytes: Uint8Array, items: RlpItem[]): TrieNode {
  if (items.length === 17) {
    const children = new Array<Ref>(16);
    for (let i = 0; i < 16; i++) children[i] = decodeRef(bytes, items[i] as RlpItem);
    const value = items[16] as RlpItem;
    return {kind: Kind.Branch, children, value: bytes.subarray(value.start, value.end)};
  }
  const [encodedPath, second] = items as [RlpItem, RlpItem];
  const flag = (bytes[encodedPath.start] as number) >> 4;
  const path: number[] = [];
  if (flag & 1) path.push((bytes[encodedPath.start] as number) & 0x0f);
  for (let i = encodedPath.start + 1; i < encodedPath.end; i++) {
    const byte = bytes[i] as number;
    path.push(byte >> 4, byte & 0x0f);
  }
  if (flag >= 2) return {kind: Kind.Leaf, path, value: bytes.subarray(second.start, second.end)};
  return {kind: Kind.Extension, path, child: decodeRef(bytes, second)};
}

/** A child reference of a stored node: empty, a hash, or an inlined node (then without a hash). */
function decodeRef(bytes: Uint8Array, item: RlpItem): Ref {
  if (item.list) return decodeNode(bytes, rlpItemsOf(bytes, item));
  return item.end === item.start ? null : bytes.subarray(item.start, item.end);
}

/** The compact (hex-prefix) encoding of a path: a flag nibble (leaf, odd length), then the nibbles. */
function hexPrefix(path: number[], leaf: boolean): Uint8Array {
  const odd = path.length % 2;
  const out = new Uint8Array((path.length >> 1) + 1);
  out[0] = ((leaf ? 2 : 0) + odd) << 4;
  let i = 0;
  if (odd) out[0] |= path[i++] as number;
  for (let o = 1; i < path.length; i += 2, o++) out[o] = ((path[i] as number) << 4) | (path[i + 1] as number);
  return out;
}

function toNibbles(key: Uint8Array): number[] {
  const nibbles = new Array<number>(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    nibbles[2 * i] = (key[i] as number) >> 4;
    nibbles[2 * i + 1] = (key[i] as number) & 0x0f;
  }
  return nibbles;
}

/** How many nibbles `nodePath` shares with `path` from `depth` on. */
function commonPrefix(nodePath: number[], path: number[], depth: number): number {
  let n = 0;
  while (n < nodePath.length && depth + n < path.length && nodePath[n] === path[depth + n]) n++;
  return n;
}

function equalRoot(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
