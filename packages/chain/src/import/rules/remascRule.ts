import {type Block, isRemascTransaction} from "@xchain/primitives";
import {BlockError, BlockErrorCode} from "../../errors.ts";

/** The last transaction is the REMASC transaction, and no other is (B§2.6, B§5.1 `RemascValidationRule`). */
export function remascRule(block: Block): void {
  const last = block.transactions.length - 1;
  block.transactions.forEach((tx, index) => {
    if (index < last && isRemascTransaction(tx)) throw new BlockError({code: BlockErrorCode.REMASC_NOT_LAST, index});
  });
  if (!block.remascTransaction) throw new BlockError({code: BlockErrorCode.REMASC_MISSING});
}
