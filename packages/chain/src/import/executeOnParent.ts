import type {Chainspec} from "@xchain/chainspec";
import {type BlockExecutionResult, blockContextOf, type ExecuteBlockInput, remascAncestry} from "@xchain/execution";
import type {Block, BlockHeader} from "@xchain/primitives";
import type {ChainFork, LocalExecution} from "../types.ts";
import type {AncestorView} from "./ancestors.ts";
import {executedAlike} from "./localExecution.ts";

/** What executing a block needs of the execution package. */
export interface BlockExecutorApi {
  execute(input: ExecuteBlockInput): Promise<BlockExecutionResult>;
}

/** What executing a block on its parent reads besides the block. */
export interface ExecuteOnParentDeps {
  chainspec: Chainspec;
  executor: BlockExecutorApi;
  /** The state root after a block: its dev state override, if any, else its stateRoot (`StateOverrides.rootAfter`). */
  stateRootAfter(header: BlockHeader): Uint8Array;
  /**
   * On a forked chain, the fork it extends now (`Chain.fork`): BLOCKHASH at or below the anchor reads
   * its ancestry, and REMASC processes no block at or below the anchor.
   */
  fork?: () => ChainFork | undefined;
}

/**
 * Executes `block` on its parent's state (the parent is `ancestors.parent`; a dev-edited parent's
 * edited state), with BLOCKHASH and the blocks REMASC reads taken from the block's own chain;
 * `local`, this node's own execution of the block, is the result when it ran exactly this block on
 * this state (`executedAlike`). The caller has checked the transactions root against the body
 * (import's `transactionsRootRule`, or the stored block's verification).
 */
export async function executeOnParent(
  deps: ExecuteOnParentDeps,
  block: Block,
  ancestors: AncestorView,
  local?: LocalExecution,
): Promise<BlockExecutionResult> {
  const {header} = block;
  const parentStateRoot = deps.stateRootAfter(ancestors.parent);
  if (local && executedAlike(local, block, parentStateRoot)) return local.result;
  const fork = deps.fork?.();
  const remasc = await remascAncestry(deps.chainspec, header.number, fork?.anchor.number, (n) =>
    ancestors.withUncles(n),
  );
  return deps.executor.execute({
    block: blockContextOf(header),
    transactions: block.transactions,
    parentStateRoot,
    transactionsRoot: header.txTrieRoot,
    chain: {
      blockHash: (n) => ancestors.blockHash(n),
      remasc,
      forkAncestry: fork?.ancestry,
      headers: ancestors,
    },
  });
}
