/**
 * The mark phase of a state collection (docs/operations.md §12): a walk of the state at one root that
 * marks every trie node and code it reaches WHOLE, in small batches. A node is marked only after
 * everything below it, so a WHOLE mark found in the store (left by the walk of another root, or by an
 * earlier run of this collection before a crash) ends the descent there. Memory is the walk's path:
 * a frame per level, each with the children still to visit.
 */
import {Bucket, type KeyValueStore, WriteBatch} from "@xchain/db";
import {bytesToHex, bytesToPrefixedHex, concatBytes, equalBytes} from "@xchain/utils";
import {StateError, StateErrorCode} from "../errors.ts";
import {EMPTY_TRIE_ROOT} from "../trie.ts";
import {nodeReferences, TrieKind} from "../verifyState.ts";
import {StateMark} from "./marks.ts";

/** ethereumjs's CODEHASH_PREFIX ("c"), which contract code keys start with. */
const CODE_PREFIX = Uint8Array.of(0x63);
const WHOLE_VALUE = Uint8Array.of(StateMark.WHOLE);

/** How the walk shares the node with everything else. */
export interface MarkControl {
  /** Marks written per batch; between batches the walk calls `pause`. */
  batchNodes: number;
  /** Awaited between batches (the collector yields to imports and requests there). */
  pause: () => Promise<void>;
  /** Checked between nodes: once aborted the walk stops (its marks so far stay valid). */
  signal?: AbortSignal;
}

interface Frame {
  key: Uint8Array;
  kind: TrieKind;
  /** The children not marked WHOLE yet, once the node was read. */
  children?: [Uint8Array, TrieKind][];
  next: number;
}

/**
 * Marks the state at `root` WHOLE; returns the nodes it marked. Throws STATE_NODE_MISSING when a
 * node the state references is not stored (a state pruned earlier, or damage): the marks written so
 * far stay (they are whole subtrees). Code is marked without being read: it references nothing, and a
 * forked state's base code is not stored at all.
 */
export async function markState(store: KeyValueStore, root: Uint8Array, control: MarkControl): Promise<number> {
  if (equalBytes(root, EMPTY_TRIE_ROOT) || (await isWhole(store, root))) return 0;
  let batch = new WriteBatch();
  /** Keys marked in the batch not written yet, which the store does not answer. */
  let unwritten = new Set<string>();
  let marked = 0;
  const stack: Frame[] = [{key: root, kind: TrieKind.Account, next: 0}];
  for (let frame = stack.at(-1); frame !== undefined; frame = stack.at(-1)) {
    control.signal?.throwIfAborted();
    if (frame.children === undefined) frame.children = await unmarkedChildren(store, frame, batch, unwritten);
    const child = frame.children[frame.next++];
    if (child !== undefined) {
      stack.push({key: child[0], kind: child[1], next: 0});
      continue;
    }
    stack.pop();
    batch.put(Bucket.stateMark, frame.key, WHOLE_VALUE);
    unwritten.add(bytesToHex(frame.key));
    marked++;
    if (batch.size >= control.batchNodes) {
      await store.write(batch);
      batch = new WriteBatch();
      unwritten = new Set();
      await control.pause();
    }
  }
  await store.write(batch);
  return marked;
}

/** Reads the frame's node; marks its code; answers its children that are not WHOLE yet. */
async function unmarkedChildren(
  store: KeyValueStore,
  frame: Frame,
  batch: WriteBatch,
  unwritten: Set<string>,
): Promise<[Uint8Array, TrieKind][]> {
  const node = await store.get(Bucket.stateTrie, frame.key);
  if (node === undefined) {
    const key = bytesToHex(frame.key);
    throw new StateError(
      {code: StateErrorCode.NODE_MISSING, key},
      `state entry ${bytesToPrefixedHex(frame.key)} is missing`,
    );
  }
  const {children, codes} = nodeReferences(node, frame.kind);
  for (const code of codes) batch.put(Bucket.stateMark, concatBytes(CODE_PREFIX, code), WHOLE_VALUE);
  const whole = await Promise.all(
    children.map(([key]) => (unwritten.has(bytesToHex(key)) ? true : isWhole(store, key))),
  );
  return children.filter((_, i) => !whole[i]);
}

async function isWhole(store: KeyValueStore, key: Uint8Array): Promise<boolean> {
  return (await store.get(Bucket.stateMark, key))?.[0] === StateMark.WHOLE;
}
