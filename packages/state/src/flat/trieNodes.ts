/**
 * A Merkle-Patricia trie seen one nibble at a time, for the walks of the flat state (its diffs and
 * its generation): every node, whatever its kind, is opened as a branch of 16 children and a value,
 * an extension or a leaf becoming a chain of one-child steps. Nodes are read as RLP ranges
 * (rlpItems.ts), nothing decoded but the paths.
 */
import {bytesToHex, equalBytes} from "@xchain/utils";
import {StateError, StateErrorCode} from "../errors.ts";
import {type RlpItem, rlpItemsOf, rlpListItems} from "../rlpItems.ts";
import type {TrieNodeSource} from "../trieLookup.ts";

/** A subtrie not opened yet: a stored node by hash, a node at hand, or what remains of an extension or a leaf path. */
export type SubTrie =
  | {kind: "ref"; hash: Uint8Array}
  | {kind: "node"; bytes: Uint8Array; items: RlpItem[]}
  | {kind: "path"; nibbles: readonly number[]; at: number; next: SubTrie}
  | {kind: "leaf"; nibbles: readonly number[]; at: number; value: Uint8Array};

/** A subtrie opened at one nibble position: its 16 children and the value stored exactly there. */
export interface OpenedTrie {
  children: (SubTrie | undefined)[];
  value: Uint8Array | undefined;
}

/** The trie at `root` (undefined for the empty trie's root). */
export function rootSubTrie(root: Uint8Array, emptyRoot: Uint8Array): SubTrie | undefined {
  return equalBytes(root, emptyRoot) ? undefined : {kind: "ref", hash: root};
}

/** Whether two subtries are the same by content without reading them (same hash, or the same embedded bytes). */
export function sameSubTrie(a: SubTrie, b: SubTrie): boolean {
  if (a.kind === "ref" && b.kind === "ref") return equalBytes(a.hash, b.hash);
  if (a.kind === "node" && b.kind === "node" && a.items.length === b.items.length) {
    const first = a.items[0] as RlpItem;
    const last = a.items[a.items.length - 1] as RlpItem;
    const bFirst = b.items[0] as RlpItem;
    const bLast = b.items[b.items.length - 1] as RlpItem;
    return equalBytes(a.bytes.subarray(first.start, last.end), b.bytes.subarray(bFirst.start, bLast.end));
  }
  return false;
}

/** A resolved subtrie: every kind but a stored node not read yet. */
export type OpenSubTrie = Exclude<SubTrie, {kind: "ref"}>;

/** `sub` resolved when that needs no wait (not a ref, or a node in memory); undefined otherwise. */
export function resolveAtHand(nodes: TrieNodeSource, sub: SubTrie): OpenSubTrie | undefined {
  if (sub.kind !== "ref") return sub;
  const bytes = nodes.cachedNode(sub.hash);
  return bytes === undefined ? undefined : {kind: "node", bytes, items: rlpListItems(bytes)};
}

/** `sub` with a stored node read (from memory when at hand, else awaited); other kinds as they are. */
export async function resolve(nodes: TrieNodeSource, sub: SubTrie): Promise<OpenSubTrie> {
  const atHand = resolveAtHand(nodes, sub);
  if (atHand !== undefined) return atHand;
  const hash = (sub as {hash: Uint8Array}).hash;
  const bytes = await nodes.node(hash);
  if (bytes === undefined) {
    const key = bytesToHex(hash);
    throw new StateError({code: StateErrorCode.NODE_MISSING, key}, `state entry ${key} is missing`);
  }
  return {kind: "node", bytes, items: rlpListItems(bytes)};
}

/** A resolved subtrie opened as a branch. */
export function openSubTrie(sub: OpenSubTrie): OpenedTrie {
  const children: (SubTrie | undefined)[] = new Array(16).fill(undefined);
  if (sub.kind === "leaf") {
    if (sub.at === sub.nibbles.length) return {children, value: sub.value};
    children[sub.nibbles[sub.at] as number] = {...sub, at: sub.at + 1};
    return {children, value: undefined};
  }
  if (sub.kind === "path") {
    const nibble = sub.nibbles[sub.at] as number;
    children[nibble] = sub.at + 1 === sub.nibbles.length ? sub.next : {...sub, at: sub.at + 1};
    return {children, value: undefined};
  }
  const {bytes, items} = sub;
  if (items.length === 17) {
    for (let i = 0; i < 16; i++) children[i] = childOf(bytes, items[i] as RlpItem);
    const value = items[16] as RlpItem;
    return {children, value: value.end === value.start ? undefined : bytes.slice(value.start, value.end)};
  }
  const [pathItem, second] = items as [RlpItem, RlpItem];
  const {nibbles, leaf} = decodePath(bytes, pathItem);
  if (leaf) {
    const value = bytes.slice(second.start, second.end);
    return openSubTrie({kind: "leaf", nibbles, at: 0, value});
  }
  const next = childOf(bytes, second);
  // An extension with no path or no child is never encoded: read as an empty subtrie.
  if (next === undefined || nibbles.length === 0) return {children, value: undefined};
  return openSubTrie({kind: "path", nibbles, at: 0, next});
}

/** The leaf a resolved subtrie holds when it is a single leaf: its remaining nibbles and value. */
export function singleLeaf(sub: OpenSubTrie): {nibbles: number[]; value: Uint8Array} | undefined {
  if (sub.kind === "leaf") return {nibbles: sub.nibbles.slice(sub.at), value: sub.value};
  if (sub.kind !== "node" || sub.items.length !== 2) return undefined;
  const [pathItem, second] = sub.items as [RlpItem, RlpItem];
  const {nibbles, leaf} = decodePath(sub.bytes, pathItem);
  return leaf ? {nibbles, value: sub.bytes.slice(second.start, second.end)} : undefined;
}

/** The child an item of a branch or extension names: embedded, by hash, or none. */
export function childOf(bytes: Uint8Array, item: RlpItem): SubTrie | undefined {
  if (item.list) return {kind: "node", bytes, items: rlpItemsOf(bytes, item)};
  if (item.end === item.start) return undefined;
  return {kind: "ref", hash: bytes.subarray(item.start, item.end)};
}

/** A hex-prefix encoded path: its nibbles and whether it ends a leaf (flag nibble 2 or 3). */
function decodePath(bytes: Uint8Array, item: RlpItem): {nibbles: number[]; leaf: boolean} {
  const flag = bytes[item.start] as number;
  const nibbles: number[] = [];
  if ((flag >> 4) & 1) nibbles.push(flag & 0x0f);
  for (let i = item.start + 1; i < item.end; i++) {
    const byte = bytes[i] as number;
    nibbles.push(byte >> 4, byte & 0x0f);
  }
  return {nibbles, leaf: flag >> 4 >= 2};
}

/** The bytes of a full key given as nibbles (an even number of them). */
export function nibblesToBytes(nibbles: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(nibbles.length >> 1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = ((nibbles[2 * i] as number) << 4) | (nibbles[2 * i + 1] as number);
  return bytes;
}

/** The nibbles of `bytes`. */
export function bytesToNibbles(bytes: Uint8Array): number[] {
  const nibbles: number[] = [];
  for (const byte of bytes) nibbles.push(byte >> 4, byte & 0x0f);
  return nibbles;
}

/**
 * `children` with the stored nodes among them from `from` on read, in one request when the source
 * can (a walk that visits them all: one read instead of one per child); the others as they are.
 */
export async function readChildren(
  nodes: TrieNodeSource,
  children: readonly (SubTrie | undefined)[],
  from: number,
): Promise<(SubTrie | undefined)[]> {
  const read = [...children];
  if (nodes.manyNodes === undefined) return read;
  const wanted: number[] = [];
  for (let i = from; i < children.length; i++) {
    const child = children[i];
    if (child?.kind === "ref" && nodes.cachedNode(child.hash) === undefined) wanted.push(i);
  }
  if (wanted.length < 2) return read;
  const values = await nodes.manyNodes(wanted.map((i) => (children[i] as {hash: Uint8Array}).hash));
  wanted.forEach((i, k) => {
    const bytes = values[k];
    if (bytes !== undefined) read[i] = {kind: "node", bytes, items: rlpListItems(bytes)};
  });
  return read;
}

/** Whether two RLP items (of two nodes) have the same payload: the same child hash or embedded node. */
export function sameItem(a: Uint8Array, itemA: RlpItem, b: Uint8Array, itemB: RlpItem): boolean {
  const length = itemA.end - itemA.start;
  if (length !== itemB.end - itemB.start || itemA.list !== itemB.list) return false;
  for (let i = 0; i < length; i++) if (a[itemA.start + i] !== b[itemB.start + i]) return false;
  return true;
}
