/**
 * The flat state's writer (docs/operations.md §13): keeps bucket `flatState` equal to the state at the
 * chain's head, one entry per account and per storage slot under their hashed keys, so that readers
 * (flatView.ts) read a value in one LevelDB read instead of a walk down the trie.
 *
 * Every change is a list of ops the caller writes in one batch with the meta record, so the entries
 * never describe a root other than the meta's:
 * - a head change (an import, a reorganization, a dev edit or revert) adds the diff of the two states
 *   (trieDiff.ts), which costs what changed; a diff too large to follow restarts the generation;
 * - while generating, a step copies the next entries of the head's trie (trieRange.ts) and deletes
 *   what lies in between that the trie does not hold; a head change then only updates the entries up
 *   to the marker, the step after it goes on from the marker in the new head's trie.
 * Only the chain writes (one writer, serialized with the head changes); the meta in memory is the
 * one stored once the caller reports its batch written (`applied`).
 */
import {type BatchOp, Bucket, bucketKey, type KeyValueStore} from "@xchain/db";
import {bytesToHex, compareBytes, equalBytes} from "@xchain/utils";
import {trieWriteEntry} from "../nodeStore.ts";
import {keyAfter} from "../prune/marks.ts";
import type {TrieNodeSource} from "../trieLookup.ts";
import {decodeFlatMeta, encodeFlatMeta, FLAT_META_KEY, type FlatMeta, markerProgress} from "./flatMeta.ts";
import {flatStateDiff} from "./trieDiff.ts";
import {flatEntriesAfter} from "./trieRange.ts";

/**
 * Nodes and leaves a head change's diff may visit before it gives up and regenerates: far more than
 * any block writes (a diff costs about a dozen visits per account or slot written), few enough that a
 * deep reorganization or a reset to an old state waits on the head's batch for a second at most.
 */
export const MAX_DIFF_WORK = 500_000;

/** What the flat state is doing, for metrics and `xchain db inspect`. */
export interface FlatStateStatus {
  /** complete: readers use it; generating: being built from the head's trie (readers walk the trie until then). */
  phase: "complete" | "generating";
  /** The state root it describes (or is being generated for), hex. */
  root: string;
  /** The share of the account key space generated so far, 0 to 1 (1 when complete). */
  progress: number;
  /** Head changes it followed by a diff, and the generations (re)started, since the node started. */
  followed: number;
  restarts: number;
}

/** A batch's worth of change: the ops, the meta they make true, and how the head change was taken. */
export interface FlatChange {
  ops: BatchOp[];
  meta: FlatMeta;
  kind: "followed" | "restarted" | "step";
}

/** One generation step, prepared without holding the chain, committed only if the meta did not move meanwhile. */
export interface FlatStep extends FlatChange {
  /** The meta the step was computed from. */
  base: FlatMeta;
}

export class FlatStateWriter {
  private meta: FlatMeta | undefined;
  private followed = 0;
  private restarts = 0;

  /**
   * `nodes` serves the head changes' diffs (the node cache and the store); `generationNodes` the
   * generation's walk, which reads every node of the state once and should not flood the cache.
   */
  constructor(
    private readonly store: KeyValueStore,
    private readonly nodes: TrieNodeSource,
    private readonly generationNodes: TrieNodeSource,
    stored: FlatMeta | undefined,
  ) {
    this.meta = stored;
  }

  /** The writer over the meta stored in `store`. */
  static async open(
    store: KeyValueStore,
    nodes: TrieNodeSource,
    generationNodes: TrieNodeSource,
  ): Promise<FlatStateWriter> {
    const stored = decodeFlatMeta(await store.get(Bucket.flatState, FLAT_META_KEY));
    return new FlatStateWriter(store, nodes, generationNodes, stored);
  }

  /**
   * Aligns with the head's state root at open: a flat state of another root (a database from before, a
   * head moved by a tool, a node run with the flat state off) is generated again for `headRoot`. Only
   * the meta in memory changes: the stored entries keep describing their root until a step rewrites them.
   */
  follow(headRoot: Uint8Array): void {
    if (this.meta === undefined || !equalBytes(this.meta.root, headRoot)) this.restart(headRoot);
  }

  /** Whether a generation step has work to do. */
  generating(): boolean {
    return this.meta !== undefined && !this.meta.complete;
  }

  status(): FlatStateStatus | undefined {
    const meta = this.meta;
    if (meta === undefined) return undefined;
    return {
      phase: meta.complete ? "complete" : "generating",
      root: bytesToHex(meta.root),
      progress: meta.complete ? 1 : markerProgress(meta.marker),
      followed: this.followed,
      restarts: this.restarts,
    };
  }

  /**
   * The ops that move the flat state from the head state `from` to `to`, for the batch that moves the
   * head; `unstored`: that batch's other writes, holding `to`'s new trie nodes. Call `applied` once the
   * batch is written. Serialized with every other change by the caller (the chain's queue).
   */
  async headChange(from: Uint8Array, to: Uint8Array, unstored: readonly BatchOp[] = []): Promise<FlatChange> {
    const meta = this.meta;
    if (meta === undefined || !equalBytes(meta.root, from)) return this.restartChange(to);
    if (equalBytes(from, to)) return {ops: [], meta, kind: "followed"};
    const writes = await flatStateDiff(withUnstored(this.nodes, unstored), from, to, MAX_DIFF_WORK);
    if (writes === undefined) return this.restartChange(to);
    const ops: BatchOp[] = [];
    const {marker} = meta;
    for (const {key, value} of writes) {
      // While generating, only the entries up to the marker are kept exact; the rest is the generation's.
      if (!meta.complete && (marker === undefined || compareBytes(key, marker) > 0)) continue;
      const bucketed = bucketKey(Bucket.flatState, key);
      ops.push(value === undefined ? {type: "del", key: bucketed} : {type: "put", key: bucketed, value});
    }
    const next = {...meta, root: Uint8Array.from(to)};
    ops.push(metaOp(next));
    return {ops, meta: next, kind: "followed"};
  }

  /** The change's batch was written: its meta is the stored one now. */
  applied(change: FlatChange): void {
    if (change.kind === "followed") this.followed++;
    if (change.kind === "restarted") this.restarts++;
    this.meta = change.meta;
  }

  /**
   * The next generation step: up to `limit` entries of the head's trie after the marker, with the
   * deletes of the stale entries in between (or, past the trie's last entry, up to `limit` deletes of
   * what is left); undefined when there is nothing to generate. Reads only: `commitStep` writes it.
   */
  async prepareStep(limit: number): Promise<FlatStep | undefined> {
    const base = this.meta;
    if (base === undefined || base.complete) return undefined;
    const range = await flatEntriesAfter(this.generationNodes, base.root, base.marker, limit);
    const gte = base.marker === undefined ? Uint8Array.of(0) : keyAfter(base.marker);
    const ops: BatchOp[] = [];
    const last = range.entries.at(-1)?.[0];
    if (last !== undefined) {
      const kept = new Set(range.entries.map(([key]) => bytesToHex(key)));
      for await (const [key] of this.store.entries(Bucket.flatState, {gte, lt: keyAfter(last)})) {
        if (!kept.has(bytesToHex(key))) ops.push({type: "del", key: bucketKey(Bucket.flatState, key)});
      }
      for (const [key, value] of range.entries) ops.push({type: "put", key: bucketKey(Bucket.flatState, key), value});
      const meta = {root: base.root, complete: false, marker: last};
      ops.push(metaOp(meta));
      return {ops, meta, base, kind: "step"};
    }
    // Past the trie's last entry: what remains in the bucket is stale.
    let stale = 0;
    for await (const [key] of this.store.entries(Bucket.flatState, {gte, limit})) {
      ops.push({type: "del", key: bucketKey(Bucket.flatState, key)});
      stale++;
    }
    const meta = stale < limit ? {root: base.root, complete: true, marker: undefined} : base;
    ops.push(metaOp(meta));
    return {ops, meta, base, kind: "step"};
  }

  /** The step's ops when the flat state is still where the step started from; undefined otherwise (prepare it again). */
  commitStep(step: FlatStep): BatchOp[] | undefined {
    return this.meta === step.base ? step.ops : undefined;
  }

  private restart(root: Uint8Array): void {
    this.meta = {root: Uint8Array.from(root), complete: false, marker: undefined};
    this.restarts++;
  }

  private restartChange(to: Uint8Array): FlatChange {
    const meta = {root: Uint8Array.from(to), complete: false, marker: undefined};
    return {ops: [metaOp(meta)], meta, kind: "restarted"};
  }
}

function metaOp(meta: FlatMeta): BatchOp {
  return {type: "put", key: bucketKey(Bucket.flatState, FLAT_META_KEY), value: encodeFlatMeta(meta)};
}

/**
 * `nodes` with the trie nodes of a batch about to be written behind the cache: sessions put the nodes
 * they commit in the shared cache, so the batch is indexed only when a node is not found there.
 */
function withUnstored(nodes: TrieNodeSource, ops: readonly BatchOp[]): TrieNodeSource {
  let unstored: Map<string, Uint8Array> | undefined;
  const fromBatch = (hash: Uint8Array): Uint8Array | undefined => {
    if (unstored === undefined) {
      unstored = new Map();
      for (const op of ops) {
        const entry = trieWriteEntry(op);
        if (entry) unstored.set(entry[0], entry[1]);
      }
    }
    return unstored.get(bytesToHex(hash));
  };
  return {
    cachedNode: (hash) => nodes.cachedNode(hash),
    node: async (hash) => fromBatch(hash) ?? nodes.node(hash),
  };
}
