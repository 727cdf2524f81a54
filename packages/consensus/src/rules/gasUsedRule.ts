import type {BlockHeader} from "@xchain/primitives";
import {HeaderError, HeaderErrorCode} from "../errors.ts";

/** gasUsed must not exceed gasLimit (docs/protocol/fees.md §1, rskj `ValidGasUsedRule`). */
export function gasUsedRule(header: BlockHeader): void {
  if (header.gasUsed > header.gasLimit) {
    throw new HeaderError({
      code: HeaderErrorCode.GAS_USED_ABOVE_LIMIT,
      gasLimit: header.gasLimit,
      gasUsed: header.gasUsed,
    });
  }
}
