/**
 * `xchain db repair`'s state rebuild: when trie nodes the head's state needs are lost but the blocks
 * are whole, the genesis state is written again and every canonical block re-executed on its parent,
 * in order. Each execution writes the nodes it produces, so the states of every block come back,
 * each checked against its header's stateRoot. Costs a full re-execution of the chain. A block whose
 * parent's state a dev control edited executes on the edited state, if its nodes are still stored:
 * an edit is no block and cannot be re-executed, so a lost edited state stops the rebuild there
 * (docs/operations.md §6).
 */
import type {Chainspec, GenesisParams} from "@xchain/chainspec";
import {type KeyValueStore, WriteBatch} from "@xchain/db";
import {BlockExecutor, createChainCommon} from "@xchain/execution";
import type {BlockHeader} from "@xchain/primitives";
import {defaultStateOptions, StateDatabase} from "@xchain/state";
import {bytesToPrefixedHex, equalBytes} from "@xchain/utils";
import {buildGenesisBlock} from "../genesis.ts";
import {AncestorView} from "../import/ancestors.ts";
import {executeOnParent} from "../import/executeOnParent.ts";
import {defaultChainOptions} from "../options.ts";
import {abandonCollection} from "../prune/retentionRecord.ts";
import {ChainStore} from "../store/chainStore.ts";
import {StateOverrides} from "../store/stateOverrides.ts";
import type {ChainDamage} from "./verifyChain.ts";

const NODE_CACHE_BYTES = 64 * 1024 * 1024;

export interface StateRebuild {
  /** The highest block whose state was rebuilt and matched its header (-1: not even the genesis). */
  rebuiltThrough: number;
  /** The block that could not be re-executed to its header's state, if any. */
  failure?: ChainDamage;
  /**
   * Set when the last block rebuilt (`rebuiltThrough`) had a dev-edited state: a rebuild gives its
   * header's state, not the edit, so its override was dropped and the node reads that state after it.
   */
  editDropped?: boolean;
}

export interface RebuildModules {
  chainspec: Chainspec;
  genesis: GenesisParams;
  onBlock?: (blockNumber: number) => void;
  signal?: AbortSignal;
}

/** Rebuilds the states of the canonical blocks 0 to `upTo` (see the file comment). */
export async function rebuildState(kv: KeyValueStore, upTo: number, modules: RebuildModules): Promise<StateRebuild> {
  const {chainspec, genesis, onBlock, signal} = modules;
  const store = new ChainStore(kv, {rules: chainspec, chainId: chainspec.params.chainId}, defaultChainOptions);
  const state = new StateDatabase({...defaultStateOptions, nodeCacheBytes: NODE_CACHE_BYTES}, {store: kv});
  const genesisBuild = await buildGenesisBlock(genesis, chainspec, state, createChainCommon(chainspec));
  const genesisHash = await store.canonical.hashAt(0);
  if (!genesisHash || !equalBytes(genesisHash, genesisBuild.block.hash())) {
    return {rebuiltThrough: -1, failure: {number: 0, problem: "the stored genesis is not this network's"}};
  }
  // The rebuilt entries carry no marks: a collection left half done must not sweep them.
  await abandonCollection(kv);
  await kv.write(new WriteBatch().append(genesisBuild.stateWrites));
  const overrides = new StateOverrides(kv);
  await overrides.load();
  const deps = {
    chainspec,
    executor: new BlockExecutor({}, {chainspec, state}),
    stateRootAfter: (header: BlockHeader) => overrides.rootAfter(header),
  };
  const headHash = (await store.canonical.hashAt(upTo)) ?? genesisHash;
  let parent = genesisBuild.block.header;
  for (let n = 1; n <= upTo; n++) {
    signal?.throwIfAborted();
    const hash = await store.canonical.hashAt(n);
    const block = hash && (await store.blocks.getBlock(hash));
    if (!hash || !block) return {rebuiltThrough: n - 1, failure: {number: n, problem: "the block is not stored"}};
    const at = {number: n, hash: bytesToPrefixedHex(hash)};
    let stateWrites: WriteBatch;
    try {
      const result = await executeOnParent(deps, block, new AncestorView(store, parent, headHash));
      if (!equalBytes(result.stateRoot, block.header.stateRoot)) {
        return {
          rebuiltThrough: n - 1,
          failure: {...at, problem: "its re-execution does not give its header's stateRoot"},
        };
      }
      stateWrites = new WriteBatch().append(result.stateWrites);
    } catch (e) {
      const problem = `its re-execution failed: ${(e as Error).message}`;
      if (!(await dropEdit(kv, overrides, parent))) return {rebuiltThrough: n - 1, failure: {...at, problem}};
      return {
        rebuiltThrough: n - 1,
        failure: {
          ...at,
          problem: `${problem} (its parent's state was edited by a dev control, and a rebuild cannot recreate an edit)`,
        },
        editDropped: true,
      };
    }
    await kv.write(stateWrites);
    parent = block.header;
    onBlock?.(n);
  }
  // The rebuild ran because the state read after the last block lost nodes: an edited one cannot come back.
  return (await dropEdit(kv, overrides, parent)) ? {rebuiltThrough: upTo, editDropped: true} : {rebuiltThrough: upTo};
}

/**
 * Drops the dev state override of `header`, the new head of a rebuilt chain: the rebuild restored its header's
 * state, not the edit. Whether there was one.
 */
async function dropEdit(kv: KeyValueStore, overrides: StateOverrides, header: BlockHeader): Promise<boolean> {
  if (equalBytes(overrides.rootAfter(header), header.stateRoot)) return false;
  const batch = new WriteBatch();
  overrides.write(batch, header, header.stateRoot);
  await kv.write(batch);
  return true;
}
