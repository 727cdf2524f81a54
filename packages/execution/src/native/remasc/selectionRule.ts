/**
 * rskj's `SelectionRule.isBrokenSelectionRule`: whether the processed block should have lost to one of
 * its siblings under the fork choice's tie-break (docs/protocol/native-contracts.md §11.1).
 */
import {compareBytes} from "@xchain/utils";
import type {RemascHeader, RemascSibling} from "./ancestry.ts";

const PAID_FEES_MULTIPLIER = 2n;

/**
 * True when a sibling paid more than twice the processed block's fees, or paid more than half of them
 * with a smaller hash (unsigned, byte by byte), or when some sibling has more uncles than the block.
 */
export function isBrokenSelectionRule(processing: RemascHeader, siblings: readonly RemascSibling[]): boolean {
  let maxUncleCount = 0;
  const processingHash = processing.hash();
  for (const sibling of siblings) {
    maxUncleCount = Math.max(maxUncleCount, sibling.uncleCount);
    if (sibling.paidFees > processing.paidFees * PAID_FEES_MULTIPLIER) return true;
    if (
      processing.paidFees < sibling.paidFees * PAID_FEES_MULTIPLIER &&
      compareBytes(sibling.hash, processingHash) < 0
    ) {
      return true;
    }
  }
  return maxUncleCount > processing.uncleCount;
}
