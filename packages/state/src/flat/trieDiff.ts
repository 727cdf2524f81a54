/**
 * The difference between two states, as the flat state's writes (flatState.ts): the account trie
 * and, for every account whose storage root changed, its storage trie, compared subtrie by subtrie.
 * Subtries under the same hash are skipped unread, so a diff costs what changed (a block's writes,
 * a reorganization's blocks, a dev edit), not the size of the state: it needs both states' nodes
 * (the old head's, stored, and the new one's, stored or in the batch being written), nothing else.
 */
import {compareBytes, concatBytes, equalBytes} from "@xchain/utils";
import {type RlpItem, rlpListItems} from "../rlpItems.ts";
import {EMPTY_TRIE_ROOT} from "../trie.ts";
import type {TrieNodeSource} from "../trieLookup.ts";
import {
  childOf,
  nibblesToBytes,
  openSubTrie,
  resolve,
  resolveAtHand,
  rootSubTrie,
  type SubTrie,
  sameItem,
  sameSubTrie,
  singleLeaf,
} from "./trieNodes.ts";

/** One write of the flat state: a key (32-byte account, 64-byte storage) and its new value, undefined to delete. */
export interface FlatWrite {
  key: Uint8Array;
  value: Uint8Array | undefined;
}

/** One leaf that differs: its key and its value on each side (undefined where absent). */
type Emit = (key: Uint8Array, before: Uint8Array | undefined, after: Uint8Array | undefined) => void;

/**
 * The flat writes that turn the state at `from` into the one at `to`, in no particular order; undefined
 * when the diff would visit more than `maxWork` nodes and leaves (a reorganization too deep to follow:
 * the caller regenerates instead).
 */
export async function flatStateDiff(
  nodes: TrieNodeSource,
  from: Uint8Array,
  to: Uint8Array,
  maxWork: number,
): Promise<FlatWrite[] | undefined> {
  const walk = new TrieDiff(nodes, maxWork);
  const accounts: [Uint8Array, Uint8Array | undefined, Uint8Array | undefined][] = [];
  const complete = await walk.diff(rootOf(from), rootOf(to), [], (key, before, after) => {
    accounts.push([key, before, after]);
  });
  if (!complete) return undefined;
  const writes: FlatWrite[] = [];
  for (const [accountKey, before, after] of accounts) {
    writes.push({key: accountKey, value: after});
    const beforeRoot = storageRootOf(before);
    const afterRoot = storageRootOf(after);
    if (equalBytes(beforeRoot, afterRoot)) continue;
    const storageComplete = await walk.diff(rootOf(beforeRoot), rootOf(afterRoot), [], (slotKey, _, value) => {
      writes.push({key: concatBytes(accountKey, slotKey), value});
    });
    if (!storageComplete) return undefined;
  }
  return writes;
}

function rootOf(root: Uint8Array): SubTrie | undefined {
  return rootSubTrie(root, EMPTY_TRIE_ROOT);
}

/** The storage root in an account trie value (RLP [nonce, balance, storageRoot, codeHash]); the empty root for none. */
export function storageRootOf(accountRlp: Uint8Array | undefined): Uint8Array {
  if (accountRlp === undefined) return EMPTY_TRIE_ROOT;
  const item = rlpListItems(accountRlp)[2] as RlpItem;
  return accountRlp.subarray(item.start, item.end);
}

/** Compares subtries, within a budget of visits shared by every diff it runs. */
class TrieDiff {
  constructor(
    private readonly nodes: TrieNodeSource,
    private work: number,
  ) {}

  /** Emits every leaf that differs between `a` and `b` (both at `path`); false when the budget ran out. */
  async diff(a: SubTrie | undefined, b: SubTrie | undefined, path: number[], emit: Emit): Promise<boolean> {
    if (a === undefined && b === undefined) return true;
    if (a !== undefined && b !== undefined && sameSubTrie(a, b)) return true;
    if (--this.work < 0) return false;
    if (a === undefined) return this.leaves(b as SubTrie, path, (key, value) => emit(key, undefined, value));
    if (b === undefined) return this.leaves(a, path, (key, value) => emit(key, value, undefined));
    const left = resolveAtHand(this.nodes, a) ?? (await resolve(this.nodes, a));
    const right = resolveAtHand(this.nodes, b) ?? (await resolve(this.nodes, b));
    // A single leaf on either side: compare the two subtries' leaves as sorted lists.
    if (singleLeaf(left) !== undefined || singleLeaf(right) !== undefined) return this.merge(left, right, path, emit);
    if (left.kind === "node" && right.kind === "node" && left.items.length === 17 && right.items.length === 17) {
      return this.branches(left, right, path, emit);
    }
    const opened = openSubTrie(left);
    const other = openSubTrie(right);
    if (!sameValue(opened.value, other.value)) emit(nibblesToBytes(path), opened.value, other.value);
    for (let i = 0; i < 16; i++) {
      const a = opened.children[i];
      const b = other.children[i];
      // Most children of a changed branch are the same: skipped without a call.
      if (a === undefined ? b === undefined : b !== undefined && sameSubTrie(a, b)) continue;
      path.push(i);
      const complete = await this.diff(a, b, path, emit);
      path.pop();
      if (!complete) return false;
    }
    return true;
  }

  /**
   * Two branch nodes: children compared as RLP items in place (a changed path through a large trie
   * differs in one or two children of each branch), only the differing ones opened.
   */
  private async branches(
    left: {bytes: Uint8Array; items: RlpItem[]},
    right: {bytes: Uint8Array; items: RlpItem[]},
    path: number[],
    emit: Emit,
  ): Promise<boolean> {
    const value = left.items[16] as RlpItem;
    const otherValue = right.items[16] as RlpItem;
    if (!sameItem(left.bytes, value, right.bytes, otherValue)) {
      const before = value.end === value.start ? undefined : left.bytes.slice(value.start, value.end);
      const after =
        otherValue.end === otherValue.start ? undefined : right.bytes.slice(otherValue.start, otherValue.end);
      emit(nibblesToBytes(path), before, after);
    }
    for (let i = 0; i < 16; i++) {
      const a = left.items[i] as RlpItem;
      const b = right.items[i] as RlpItem;
      if (sameItem(left.bytes, a, right.bytes, b)) continue;
      path.push(i);
      const complete = await this.diff(childOf(left.bytes, a), childOf(right.bytes, b), path, emit);
      path.pop();
      if (!complete) return false;
    }
    return true;
  }

  private async merge(a: SubTrie, b: SubTrie, path: number[], emit: Emit): Promise<boolean> {
    const left: [Uint8Array, Uint8Array][] = [];
    const right: [Uint8Array, Uint8Array][] = [];
    if (!(await this.leaves(a, path, (key, value) => left.push([key, value])))) return false;
    if (!(await this.leaves(b, path, (key, value) => right.push([key, value])))) return false;
    let i = 0;
    let j = 0;
    while (i < left.length || j < right.length) {
      const l = left[i];
      const r = right[j];
      const order = l === undefined ? 1 : r === undefined ? -1 : compareBytes(l[0], r[0]);
      if (order < 0) {
        emit((l as [Uint8Array, Uint8Array])[0], (l as [Uint8Array, Uint8Array])[1], undefined);
        i++;
      } else if (order > 0) {
        emit((r as [Uint8Array, Uint8Array])[0], undefined, (r as [Uint8Array, Uint8Array])[1]);
        j++;
      } else {
        const [key, before] = l as [Uint8Array, Uint8Array];
        const after = (r as [Uint8Array, Uint8Array])[1];
        if (!equalBytes(before, after)) emit(key, before, after);
        i++;
        j++;
      }
    }
    return true;
  }

  /** Every leaf of `sub` (at `path`) in key order; false when the budget ran out. */
  private async leaves(
    sub: SubTrie,
    path: number[],
    out: (key: Uint8Array, value: Uint8Array) => void,
  ): Promise<boolean> {
    if (--this.work < 0) return false;
    const resolved = resolveAtHand(this.nodes, sub) ?? (await resolve(this.nodes, sub));
    const leaf = singleLeaf(resolved);
    if (leaf !== undefined) {
      out(nibblesToBytes([...path, ...leaf.nibbles]), leaf.value);
      return true;
    }
    const opened = openSubTrie(resolved);
    if (opened.value !== undefined) out(nibblesToBytes(path), opened.value);
    for (let i = 0; i < 16; i++) {
      const child = opened.children[i];
      if (child === undefined) continue;
      path.push(i);
      const complete = await this.leaves(child, path, out);
      path.pop();
      if (!complete) return false;
    }
    return true;
  }
}

function sameValue(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return a === undefined ? b === undefined : b !== undefined && equalBytes(a, b);
}
