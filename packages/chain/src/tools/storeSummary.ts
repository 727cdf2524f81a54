/**
 * What `xchain db inspect` tells of a stopped node's chain (docs/operations.md §5): the schema
 * version, chain id, genesis, head, fork anchor, and the oldest block whose state is still stored.
 * It reads the store only and checks nothing beyond what it reads (`verifyChain` walks everything).
 */
import type {Chainspec} from "@xchain/chainspec";
import type {KeyValueStore} from "@xchain/db";
import {defaultStateOptions, StateDatabase} from "@xchain/state";
import {bytesToPrefixedHex} from "@xchain/utils";
import {describeForkAnchor} from "../fork/anchor.ts";
import {defaultChainOptions} from "../options.ts";
import {readRetentionRecord} from "../prune/retentionRecord.ts";
import {ChainStore} from "../store/chainStore.ts";
import {StateOverrides} from "../store/stateOverrides.ts";

/** A stored block named by number and hash (0x hex). */
export interface BlockId {
  number: number;
  hash: string;
}

/** The chain a store holds, as far as its records say. */
export interface ChainStoreSummary {
  /** Undefined in an empty store. */
  schemaVersion: number | undefined;
  chainId: number | undefined;
  /** The canonical block 0 (a forked chain has none: its chain starts at the fork anchor). */
  genesis: BlockId | undefined;
  /** The block the head pointer names (undefined when the pointer or its header is missing). */
  head: BlockId | undefined;
  /** A forked chain's anchor, described (`describeForkAnchor`). */
  fork: string | undefined;
  /**
   * The oldest canonical block whose state is stored, found by probing state roots (see
   * `oldestStoredState`); undefined when even the head's state is not stored.
   */
  oldestState: BlockId | undefined;
}

/** Reads the summary of the chain in `kv`. */
export async function summarizeChainStore(kv: KeyValueStore, chainspec: Chainspec): Promise<ChainStoreSummary> {
  const store = new ChainStore(
    kv,
    {rules: chainspec, chainId: chainspec.params.chainId},
    {...defaultChainOptions, headerCacheSize: 64},
  );
  const schemaVersion = await store.meta.getSchemaVersion();
  const chainId = await store.meta.getChainId();
  const forkAnchor = await store.meta.getForkAnchor();
  const genesisHash = await store.canonical.hashAt(0);
  const headHash = await store.meta.getHead();
  const headHeader = headHash && (await store.blocks.getHeader(headHash));
  const head = headHash && headHeader ? {number: headHeader.number, hash: bytesToPrefixedHex(headHash)} : undefined;
  return {
    schemaVersion,
    chainId,
    genesis: genesisHash && {number: 0, hash: bytesToPrefixedHex(genesisHash)},
    head,
    fork: forkAnchor && describeForkAnchor(forkAnchor),
    // Below a state collection's cutoff a state may be partly swept, its root node still there
    // (docs/operations.md §12): the search starts at the cutoff.
    oldestState:
      head &&
      (await oldestStoredState(
        kv,
        store,
        head.number,
        Math.max(forkAnchor?.number ?? 0, (await readRetentionRecord(kv)).prunedBelow),
      )),
  };
}

/**
 * The oldest canonical block in `first..head` whose state root (the dev-edited root when a dev
 * control edited it) is stored. A pruned node keeps the states of its last blocks, so the blocks
 * with a stored state are the top of the chain: the search gallops down from the head (head-1,
 * head-2, head-4…) to a block without its state, then bisects; about 2·log2(head) lookups, not one
 * per block. Block `first` (the genesis, or a fork's anchor) is probed last and on its own, since
 * a pruner may keep it. A root is "stored" when its root node is (what an RPC read needs first);
 * `xchain db verify` walks the whole head state.
 */
async function oldestStoredState(
  kv: KeyValueStore,
  store: ChainStore,
  head: number,
  first: number,
): Promise<BlockId | undefined> {
  const state = new StateDatabase(defaultStateOptions, {store: kv});
  const overrides = new StateOverrides(kv);
  await overrides.load();
  const stored = async (number: number): Promise<BlockId | undefined> => {
    const hash = await store.canonical.hashAt(number);
    const header = hash && (await store.blocks.getHeader(hash));
    if (!hash || !header) return undefined;
    return (await state.hasRoot(overrides.rootAfter(header))) ? {number, hash: bytesToPrefixedHex(hash)} : undefined;
  };
  const top = await stored(head);
  if (!top || head === first) return top;
  let oldest: BlockId = top;
  // Invariant: `oldest` has its state; `missing` (when set) is below it and does not.
  let missing: number | undefined;
  for (let step = 1; missing === undefined; step *= 2) {
    const probe = Math.max(head - step, first + 1);
    const found: BlockId | undefined = probe < oldest.number ? await stored(probe) : oldest;
    if (!found) missing = probe;
    else oldest = found;
    if (missing === undefined && probe === first + 1) break;
  }
  while (missing !== undefined && oldest.number - missing > 1) {
    const middle = Math.floor((missing + oldest.number) / 2);
    const found = await stored(middle);
    if (found) oldest = found;
    else missing = middle;
  }
  if (missing === undefined && oldest.number === first + 1) return (await stored(first)) ?? oldest;
  return oldest;
}
