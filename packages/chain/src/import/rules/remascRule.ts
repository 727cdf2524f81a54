import {type Block, closingRemascTransaction, misplacedRemascIndex} from "@xchain/primitives";
import {BlockError, BlockErrorCode} from "../../errors.ts";

/**
 * The last transaction is the REMASC transaction, and no other is (docs/protocol/header.md §6,
 * docs/protocol/fees.md §1 `RemascValidationRule`).
 */
export function remascRule(block: Block): void {
  const index = misplacedRemascIndex(block.transactions);
  if (index !== undefined) throw new BlockError({code: BlockErrorCode.REMASC_NOT_LAST, index});
  if (!closingRemascTransaction(block.transactions)) throw new BlockError({code: BlockErrorCode.REMASC_MISSING});
}
