import type {BlockHeader} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import {HeaderError, HeaderErrorCode} from "../errors.ts";

/**
 * The header must extend `parent`: number = parent.number + 1 (docs/protocol/fees.md §1, rskj `BlockParentNumberRule`)
 * and parentHash = parent's hash (implicit in rskj, which looks the parent up by that hash).
 */
export function parentNumberRule(header: BlockHeader, parent: BlockHeader): void {
  const expected = parent.number + 1;
  if (header.number !== expected) {
    throw new HeaderError({code: HeaderErrorCode.NUMBER_NOT_PARENT_PLUS_ONE, expected, actual: header.number});
  }
  const parentHash = parent.hash();
  if (!equalBytes(header.parentHash, parentHash)) {
    throw new HeaderError({
      code: HeaderErrorCode.PARENT_HASH_MISMATCH,
      expected: parentHash,
      actual: header.parentHash,
    });
  }
}
