/**
 * What re-executing a stored block needs: its transactions, its parent's state, and the chain as
 * import saw it (BLOCKHASH over its own ancestors, the blocks its REMASC transaction reads,
 * docs/protocol/native-contracts.md §11.1; on a forked chain, import's fork rules: `Chain.fork`). Traces are built from such a replay.
 */
import type {ChainReader} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import {blockContextOf, type ExecuteBlockInput, remascAncestry} from "@xchain/execution";
import type {Block} from "@xchain/primitives";
import {ancestorLookup, blockHashView, chainHeadersView} from "./callEnvironment.ts";

/**
 * The replay of `block`, or undefined for the genesis block (which executes nothing). It runs on the
 * parent's effective state, as import did: a dev-edited parent's edited state.
 */
export async function replayInput(
  chain: Pick<
    ChainReader,
    "getHeader" | "getHeaderByNumber" | "getBlock" | "getTotalDifficulty" | "stateRootAfter" | "fork"
  >,
  block: Block,
  chainspec: Chainspec,
): Promise<ExecuteBlockInput | undefined> {
  const {header} = block;
  if (header.number === 0) return undefined;
  const parent = await chain.getHeader(header.parentHash);
  if (!parent) return undefined;
  const {fork} = chain;
  // Import's rules (executeOnParent.ts): on a fork, REMASC processes no block at or below the anchor.
  const ancestorAt = ancestorLookup(chain, header);
  const remasc = await remascAncestry(chainspec, header.number, fork?.anchor.number, async (n) => {
    const ancestor = await ancestorAt(n);
    const stored = ancestor && (await chain.getBlock(ancestor.hash()));
    return stored && {header: stored.header, uncles: stored.uncles};
  });
  return {
    block: blockContextOf(header),
    transactions: block.transactions,
    parentStateRoot: chain.stateRootAfter(parent),
    chain: {
      blockHash: blockHashView(chain, header),
      remasc,
      forkAncestry: fork?.ancestry,
      headers: chainHeadersView(chain, header),
    },
  };
}
