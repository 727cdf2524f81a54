/**
 * A forked node for RPC tests: a `TestNode` whose chain is a fork of another test node's block F, read
 * through a real `ForkSource` over that node's HTTP endpoint (its state as the base, its hashes as the
 * ancestry, its history forwarded: docs/forking.md §5, its native contracts' storage read: §6), with the
 * miner for local blocks above F.
 */
import {buildForkAnchor, Chain, defaultChainOptions} from "@xchain/chain";
import {BlockExecutor, type ForkAncestry} from "@xchain/execution";
import {defaultForkSourceOptions, defaultStateOptions, ForkSource, forkSourceBase, StateDatabase} from "@xchain/state";
import {forkHistory} from "../../src/index.ts";
import {regtest, TestNode, type TestNodeOptions} from "./node.ts";

/** A forked test node and the upstream source it reads. */
export interface ForkNode {
  node: TestNode;
  source: ForkSource;
}

/** Starts a node forked at block `forkNumber` of `upstream`, its fork cache in `cacheDir`. */
export async function startForkNode(
  upstream: TestNode,
  forkNumber: number,
  cacheDir: string,
  options: TestNodeOptions = {},
): Promise<ForkNode> {
  const source = await ForkSource.open({
    ...defaultForkSourceOptions,
    url: upstream.url,
    block: forkNumber,
    cacheDir,
    retries: 1,
  });
  const base = forkSourceBase(source);
  const ancestry: ForkAncestry = {number: forkNumber, hashAt: (n) => source.blockHash(n)};
  // An xchain upstream: the fork block's header is the upstream's own.
  const header = await upstream.chain.getHeaderByNumber(forkNumber);
  if (!header) throw new Error(`the upstream has no block ${forkNumber}`);
  const node = await TestNode.start({
    miner: {},
    ...options,
    deps: {forkHistory: forkHistory(() => source), forkNativeStorage: source, ...options.deps},
    openChain: async (store) => {
      const state = new StateDatabase(defaultStateOptions, {store, base: {current: () => base}});
      const anchor = await buildForkAnchor({upstreamChainId: regtest.params.chainId, header, base}, state);
      const chain = await Chain.openFork(defaultChainOptions, {
        store,
        chainspec: regtest,
        state,
        fork: {anchor, ancestry},
      });
      return {chain, state, executor: new BlockExecutor({}, {chainspec: regtest, state})};
    },
  });
  return {node, source};
}
