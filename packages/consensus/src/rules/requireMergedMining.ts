import type {BlockHeader, MergedMiningFields} from "@xchain/primitives";
import {HeaderError, HeaderErrorCode} from "../errors.ts";

/**
 * The header's merged-mining fields; a sealed header must have them (docs/protocol/header.md §1,
 * docs/protocol/merged-mining.md §1 step 2).
 */
export function requireMergedMining(header: BlockHeader): MergedMiningFields {
  if (!header.mergedMining) throw new HeaderError({code: HeaderErrorCode.MERGED_MINING_FIELDS_MISSING});
  return header.mergedMining;
}
