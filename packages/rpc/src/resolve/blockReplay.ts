/**
 * What re-executing a stored block needs: its transactions, its parent's state, and the chain as
 * import saw it (BLOCKHASH over its own ancestors, the REMASC payout of the block `maturity`
 * before it, docs/protocol/README.md §2; on a forked chain, import's fork rules: `Chain.fork`). Traces are built from such a replay.
 */
import type {ChainReader} from "@xchain/chain";
import {blockContextOf, type ExecuteBlockInput, maturedBlockNumber} from "@xchain/execution";
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
  remascMaturity: number,
): Promise<ExecuteBlockInput | undefined> {
  const {header} = block;
  if (header.number === 0) return undefined;
  const parent = await chain.getHeader(header.parentHash);
  if (!parent) return undefined;
  const {fork} = chain;
  // Import's rules (executeOnParent.ts): on a fork, no payout of a matured block at or below the anchor.
  const maturedNumber = maturedBlockNumber(header.number, remascMaturity, fork?.anchor.number);
  const matured = maturedNumber === undefined ? undefined : await ancestorLookup(chain, header)(maturedNumber);
  return {
    block: blockContextOf(header),
    transactions: block.transactions,
    parentStateRoot: chain.stateRootAfter(parent),
    chain: {
      blockHash: blockHashView(chain, header),
      maturedBlock: matured && {coinbase: matured.coinbase, paidFees: matured.paidFees},
      forkAncestry: fork?.ancestry,
      headers: chainHeadersView(chain, header),
    },
  };
}
