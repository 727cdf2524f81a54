/**
 * The leaves of a state in the flat state's key order, from a position on: what the flat state's
 * generation copies, a few hundred entries a step (flatState.ts).
 */
import {compareBytes} from "@xchain/utils";
import {EMPTY_TRIE_ROOT} from "../trie.ts";
import type {TrieNodeSource} from "../trieLookup.ts";
import {lookupTrieValue} from "../trieLookup.ts";
import {storageRootOf} from "./trieDiff.ts";
import {
  bytesToNibbles,
  nibblesToBytes,
  openSubTrie,
  readChildren,
  resolve,
  resolveAtHand,
  rootSubTrie,
  type SubTrie,
  singleLeaf,
} from "./trieNodes.ts";

/** At most `limit` leaves of the trie at `root` whose keys sort after `after` (all from the first without it), in key order. */
export async function leavesAfter(
  nodes: TrieNodeSource,
  root: Uint8Array,
  after: Uint8Array | undefined,
  limit: number,
): Promise<[Uint8Array, Uint8Array][]> {
  const out: [Uint8Array, Uint8Array][] = [];
  const start = after === undefined ? undefined : bytesToNibbles(after);
  const afterStart = (key: number[]) => start === undefined || compareNibbles(key, start) > 0;

  // `bounded`: the path so far equals the start's first nibbles, so smaller children are skipped.
  const walk = async (sub: SubTrie, path: number[], bounded: boolean): Promise<void> => {
    const resolved = resolveAtHand(nodes, sub) ?? (await resolve(nodes, sub));
    const leaf = singleLeaf(resolved);
    if (leaf !== undefined) {
      const key = [...path, ...leaf.nibbles];
      if (!bounded || afterStart(key)) out.push([nibblesToBytes(key), leaf.value]);
      return;
    }
    const opened = openSubTrie(resolved);
    if (opened.value !== undefined && (!bounded || afterStart(path))) out.push([nibblesToBytes(path), opened.value]);
    const next = bounded && start !== undefined ? start[path.length] : undefined;
    const children = await readChildren(nodes, opened.children, next ?? 0);
    for (let i = next ?? 0; i < 16 && out.length < limit; i++) {
      const child = children[i];
      if (child === undefined) continue;
      path.push(i);
      await walk(child, path, i === next);
      path.pop();
    }
  };
  const rootSub = rootSubTrie(root, EMPTY_TRIE_ROOT);
  if (rootSub !== undefined && limit > 0) await walk(rootSub, [], start !== undefined);
  return out.slice(0, limit);
}

function compareNibbles(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

/** A step's worth of the flat state's entries after a position. */
export interface FlatRange {
  /** Keys (32-byte accounts, each followed by its 64-byte storage keys) and values, in key order. */
  entries: [Uint8Array, Uint8Array][];
  /** Whether the state has no entry after the last one. */
  exhausted: boolean;
}

/**
 * At most `limit` entries of the flat state of `root` after `marker` (every one without it): each
 * account, then its storage slots, in key order. A marker of 64 bytes is a storage key: the rest of
 * that account's storage comes first.
 */
export async function flatEntriesAfter(
  nodes: TrieNodeSource,
  root: Uint8Array,
  marker: Uint8Array | undefined,
  limit: number,
): Promise<FlatRange> {
  const entries: [Uint8Array, Uint8Array][] = [];
  let accountAfter: Uint8Array | undefined;
  if (marker !== undefined) {
    accountAfter = marker.subarray(0, 32);
    const account = await lookupTrieValue(nodes, root, accountAfter);
    const slotAfter = marker.length === 64 ? marker.subarray(32) : undefined;
    if (account !== undefined && !(await pushStorage(nodes, entries, accountAfter, account, slotAfter, limit))) {
      return {entries, exhausted: false};
    }
  }
  while (entries.length < limit) {
    const accounts = await leavesAfter(nodes, root, accountAfter, limit - entries.length);
    if (accounts.length === 0) return {entries, exhausted: true};
    for (const [key, account] of accounts) {
      entries.push([key, account]);
      if (!(await pushStorage(nodes, entries, key, account, undefined, limit))) return {entries, exhausted: false};
      accountAfter = key;
    }
  }
  return {entries, exhausted: false};
}

/** Adds the account's storage entries after `slotAfter` up to `limit` entries in all; false when some were left out. */
async function pushStorage(
  nodes: TrieNodeSource,
  entries: [Uint8Array, Uint8Array][],
  accountKey: Uint8Array,
  account: Uint8Array,
  slotAfter: Uint8Array | undefined,
  limit: number,
): Promise<boolean> {
  const storageRoot = storageRootOf(account);
  if (compareBytes(storageRoot, EMPTY_TRIE_ROOT) === 0) return true;
  // One more than there is room for tells whether the storage goes on past the step.
  const room = limit - entries.length;
  const slots = await leavesAfter(nodes, storageRoot, slotAfter, room + 1);
  for (const [slot, value] of slots.slice(0, room)) {
    const key = new Uint8Array(64);
    key.set(accountKey);
    key.set(slot, 32);
    entries.push([key, value]);
  }
  return slots.length <= room;
}
