import {transactionsRoot} from "@xchain/execution";
import type {Block} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import {BlockError, BlockErrorCode} from "../../errors.ts";

/**
 * txTrieRoot is the root of the block's transactions (docs/protocol/fees.md §1 `BlockRootValidationRule`;
 * MPT, docs/protocol/README.md §2).
 */
export async function transactionsRootRule(block: Block): Promise<void> {
  const expected = await transactionsRoot(block.transactions);
  if (!equalBytes(expected, block.header.txTrieRoot)) {
    throw new BlockError({code: BlockErrorCode.TRANSACTIONS_ROOT_MISMATCH, expected, actual: block.header.txTrieRoot});
  }
}
