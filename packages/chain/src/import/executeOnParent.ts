import type {Chainspec} from "@xchain/chainspec";
import {type BlockExecutionResult, blockContextOf, type ExecuteBlockInput} from "@xchain/execution";
import type {Block} from "@xchain/primitives";
import type {AncestorView} from "./ancestors.ts";

/** What executing a block needs of the execution package. */
export interface BlockExecutorApi {
  execute(input: ExecuteBlockInput): Promise<BlockExecutionResult>;
}

/**
 * Executes `block` on its parent's state (the parent is `ancestors.parent`), with BLOCKHASH and the
 * REMASC matured block read from the block's own chain. The caller has checked the transactions
 * root against the body (import's `transactionsRootRule`, or the stored block's verification).
 */
export async function executeOnParent(
  deps: {chainspec: Chainspec; executor: BlockExecutorApi},
  block: Block,
  ancestors: AncestorView,
): Promise<BlockExecutionResult> {
  const {header} = block;
  const maturity = deps.chainspec.params.remascMaturity;
  // docs/protocol/README.md §2: block N pays out the fees of block N − maturity of its own chain.
  const matured = header.number > maturity ? await ancestors.headerAt(header.number - maturity) : undefined;
  return deps.executor.execute({
    block: blockContextOf(header),
    transactions: block.transactions,
    parentStateRoot: ancestors.parent.stateRoot,
    transactionsRoot: header.txTrieRoot,
    chain: {
      blockHash: (n) => ancestors.blockHash(n),
      maturedBlock: matured && {coinbase: matured.coinbase, paidFees: matured.paidFees},
    },
  });
}
