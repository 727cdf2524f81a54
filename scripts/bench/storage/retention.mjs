// Opening the benchmark's chain in archive or pruned mode (the chain's `retention` options, the node's
// state.mode and state.retainBlocks: docs/operations.md §12), with a view of its state collector:
// `running()` (a collection is under way), `completed()` (collections finished), `stats()`, `stop()`.
import * as chainPackage from "@xchain/chain";

const {Chain, defaultChainOptions} = chainPackage;

/** Throws when this build cannot run `mode`: a build from before online pruning keeps every state, archive is all it does. */
export function requireMode(mode) {
  if (mode === "pruned" && defaultChainOptions.retention === undefined) {
    throw new Error(
      "pruned mode is not in this build: the chain has no state.mode yet (online pruning is not merged); run --mode archive",
    );
  }
}

/** `retain` undefined: the chain's default window. */
export async function openChain(modules, mode, retain) {
  requireMode(mode);
  const defaults = defaultChainOptions.retention;
  if (defaults === undefined) return {chain: await Chain.open(defaultChainOptions, modules), collector: undefined};
  const retention = {mode, retainBlocks: retain ?? defaults.retainBlocks};
  const chain = await Chain.open({...defaultChainOptions, retention}, modules);
  const collector =
    mode === "pruned"
      ? {
          running: () => chain.collectorStats().phase !== chainPackage.CollectionPhase.Idle,
          completed: () => chain.collectorStats().collections,
          stats: () => chain.collectorStats(),
          stop: () => chain.stopCollecting(),
        }
      : undefined;
  return {chain, collector, retainBlocks: mode === "pruned" ? retention.retainBlocks : undefined};
}
