import type {BlockExecutionResult} from "@xchain/execution";
import type {BlockHeader} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import {BlockError, BlockErrorCode} from "../../errors.ts";

/**
 * What the header commits to equals what execution produced (docs/protocol/fees.md §1, rskj `BlockExecutor.validate`):
 * stateRoot, receiptTrieRoot, logsBloom, gasUsed and paidFees, each with its own code.
 */
export function executionResultRule(header: BlockHeader, result: BlockExecutionResult): void {
  const roots = [
    [BlockErrorCode.STATE_ROOT_MISMATCH, result.stateRoot, header.stateRoot],
    [BlockErrorCode.RECEIPTS_ROOT_MISMATCH, result.receiptsRoot, header.receiptTrieRoot],
    [BlockErrorCode.LOGS_BLOOM_MISMATCH, result.logsBloom, header.logsBloom],
  ] as const;
  for (const [code, expected, actual] of roots) {
    if (!equalBytes(expected, actual)) throw new BlockError({code, expected, actual});
  }
  if (result.gasUsed !== header.gasUsed) {
    throw new BlockError({code: BlockErrorCode.GAS_USED_MISMATCH, expected: result.gasUsed, actual: header.gasUsed});
  }
  if (result.paidFees !== header.paidFees) {
    throw new BlockError({code: BlockErrorCode.PAID_FEES_MISMATCH, expected: result.paidFees, actual: header.paidFees});
  }
}
