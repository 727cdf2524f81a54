/**
 * The mark phase of a state collection (docs/operations.md §12): a walk of the state at one root that
 * marks every trie node and code it reaches WHOLE, in small batches. A node is marked only after
 * everything below it, so a WHOLE mark of the collection's epoch found in the store (left by the walk of another root, or by an
 * earlier run of this collection before a crash) ends the descent there.
 *
 * The walk reads in chunks, not node by node: a level is a chunk of up to `readNodes` nodes, read with
 * one `getMany`; the children of all of them have their marks read with one more, and those not WHOLE
 * yet make the next levels, taken `readNodes` at a time, depth first. A level's nodes are marked once
 * every level made of its children is done (all of them marked), so the rule above holds level by
 * level. A walk that waited on one read per node advanced a few hundred nodes a second while blocks
 * were imported back to back (docs/performance.md §25); two reads per chunk let it keep up, and the
 * window's states are walked together (`markStates`). Memory is the path of levels: each holds its
 * chunk and its children's keys (about 17 × `readNodes` keys).
 */
import {Bucket, type KeyValueStore, WriteBatch} from "@xchain/db";
import {bytesToHex, bytesToPrefixedHex, concatBytes, equalBytes} from "@xchain/utils";
import {StateError, StateErrorCode} from "../errors.ts";
import {EMPTY_TRIE_ROOT} from "../trie.ts";
import {nodeReferences, TrieKind} from "../verifyState.ts";
import {isMarkOf, markValue, StateMark} from "./marks.ts";

/** ethereumjs's CODEHASH_PREFIX ("c"), which contract code keys start with. */
const CODE_PREFIX = Uint8Array.of(0x63);

/** Nodes read per request when `MarkControl.readNodes` is not given. */
export const DEFAULT_MARK_READ_NODES = 256;

/** How the walk shares the node with everything else. */
export interface MarkControl {
  /** Marks written per batch (a batch may pass it by one level's nodes); between batches the walk calls `pause`. */
  batchNodes: number;
  /** Nodes read with one request, and so the most a level holds (default `DEFAULT_MARK_READ_NODES`). */
  readNodes?: number;
  /** Awaited between batches (the collector yields to imports and requests there). */
  pause: () => Promise<void>;
  /** Awaited before each read of a chunk, when given (the collector's turn in the chain's queue may end there). */
  turn?: () => Promise<void>;
  /** Checked between levels: once aborted the walk stops (its marks so far stay valid). */
  signal?: AbortSignal;
  /** The collection's epoch, which the marks carry (`markValue`; default 0): a mark of another counts as none. */
  epoch?: number;
}

type NodeRef = [Uint8Array, TrieKind];

/** A chunk of nodes read and expanded: marked once every chunk of `children` is. */
interface Level {
  keys: Uint8Array[];
  /** The children of `keys` not WHOLE when read, each once. */
  children: NodeRef[];
  /** Where the next chunk of `children` starts. */
  next: number;
}

/**
 * Marks the state at `root` WHOLE; returns the nodes it marked. Throws STATE_NODE_MISSING when a
 * node the state references is not stored (a state pruned earlier, or damage): the marks written so
 * far stay (they are whole subtrees). Code is marked without being read: it references nothing, and a
 * forked state's base code is not stored at all.
 */
export function markState(store: KeyValueStore, root: Uint8Array, control: MarkControl): Promise<number> {
  return markStates(store, [root], control);
}

/**
 * Marks the states at `roots` WHOLE in one walk, their nodes read in common chunks: for a window of
 * states that differ by a few nodes each, a few reads in all rather than a descent per root. Throws
 * as `markState` when any node is missing (marking what it could, in part).
 */
export async function markStates(
  store: KeyValueStore,
  roots: readonly Uint8Array[],
  control: MarkControl,
): Promise<number> {
  const walk = new MarkWalk(store, control);
  const readNodes = control.readNodes ?? DEFAULT_MARK_READ_NODES;
  const tries = roots
    .filter((root) => !equalBytes(root, EMPTY_TRIE_ROOT))
    .map((root): NodeRef => [root, TrieKind.Account]);
  // The roots are the children of a level of no node.
  const stack: Level[] = [{keys: [], children: await walk.unmarked(tries), next: 0}];
  for (let level = stack.at(-1); level !== undefined; level = stack.at(-1)) {
    control.signal?.throwIfAborted();
    if (level.next < level.children.length) {
      const chunk = level.children.slice(level.next, level.next + readNodes);
      level.next += chunk.length;
      await control.turn?.();
      stack.push(await walk.expand(chunk));
      continue;
    }
    stack.pop();
    await walk.mark(level.keys);
  }
  await walk.flush();
  return walk.marked;
}

/** The walk's batch of marks, and the reads that must see it before it is written. */
class MarkWalk {
  marked = 0;
  private batch = new WriteBatch();
  /** Keys marked in the batch not written yet, which the store does not answer. */
  private unwritten = new Set<string>();
  private readonly epoch: number;
  private readonly whole: Uint8Array;

  constructor(
    private readonly store: KeyValueStore,
    private readonly control: MarkControl,
  ) {
    this.epoch = control.epoch ?? 0;
    this.whole = markValue(StateMark.WHOLE, this.epoch);
  }

  /** Reads the chunk's nodes; marks their code; answers the level with their children not WHOLE yet. */
  async expand(chunk: NodeRef[]): Promise<Level> {
    const keys = chunk.map(([key]) => key);
    const nodes = await this.store.getMany(Bucket.stateTrie, keys);
    const children: NodeRef[] = [];
    chunk.forEach(([key, kind], i) => {
      const node = nodes[i];
      if (node === undefined) {
        throw new StateError(
          {code: StateErrorCode.NODE_MISSING, key: bytesToHex(key)},
          `state entry ${bytesToPrefixedHex(key)} is missing`,
        );
      }
      const references = nodeReferences(node, kind);
      for (const code of references.codes) this.batch.put(Bucket.stateMark, concatBytes(CODE_PREFIX, code), this.whole);
      children.push(...references.children);
    });
    return {keys, children: await this.unmarked(children), next: 0};
  }

  /** `refs` not WHOLE in this epoch yet (in the store or in the batch), each once. */
  async unmarked(refs: NodeRef[]): Promise<NodeRef[]> {
    const candidates = new Map<string, NodeRef>();
    for (const ref of refs) {
      const hex = bytesToHex(ref[0]);
      if (!this.unwritten.has(hex)) candidates.set(hex, ref);
    }
    const unique = [...candidates.values()];
    const marks = await this.store.getMany(
      Bucket.stateMark,
      unique.map(([key]) => key),
    );
    return unique.filter((_, i) => !isMarkOf(marks[i], this.epoch, StateMark.WHOLE));
  }

  /** Marks `keys` WHOLE (everything below them is); writes the batch once it is full. */
  async mark(keys: Uint8Array[]): Promise<void> {
    for (const key of keys) {
      this.batch.put(Bucket.stateMark, key, this.whole);
      this.unwritten.add(bytesToHex(key));
    }
    this.marked += keys.length;
    if (this.batch.size >= this.control.batchNodes) {
      await this.flush();
      await this.control.pause();
    }
  }

  async flush(): Promise<void> {
    await this.store.write(this.batch);
    this.batch = new WriteBatch();
    this.unwritten = new Set();
  }
}
