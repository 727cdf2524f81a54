/**
 * Who is at fault when the chain refuses a block the sync assembled from a checked header and a
 * body from some peer. The chain checks (docs/protocol/fees.md §1 order) the header rules, fork-detection data, then
 * the body rules (chain id, REMASC last, gas prices), the transactions root, the uncles, and last
 * the execution result. The body is only known to be the header's once the transactions root and
 * the uncles hash matched, so:
 *  - "header": a header rule the sync does not check itself (fork-detection data): the header's
 *    source served an invalid header;
 *  - "body": a body rule up to and including the transactions root, or an uncle list that is not
 *    the one the header commits to: the body's source may have served a body of another block, so
 *    the body is asked from another peer;
 *  - "block": everything after (uncle rules, execution results): the body is the header's, the
 *    block itself is invalid, the header's source served an invalid chain.
 */
import {BlockErrorCode} from "@xchain/chain";
import {HeaderErrorCode} from "@xchain/consensus";
import {MergedMiningErrorCode} from "@xchain/merged-mining";

/** Who served what the chain refused. */
export type ImportFault = "header" | "body" | "block";

const BODY_CODES = new Set<string>([
  BlockErrorCode.TRANSACTION_WRONG_CHAIN_ID,
  BlockErrorCode.REMASC_MISSING,
  BlockErrorCode.REMASC_NOT_LAST,
  BlockErrorCode.GAS_PRICE_BELOW_MINIMUM,
  BlockErrorCode.GAS_PRICE_ABOVE_CAP,
  BlockErrorCode.TRANSACTIONS_ROOT_MISMATCH,
  HeaderErrorCode.UNCLE_COUNT_MISMATCH,
  HeaderErrorCode.UNCLES_HASH_MISMATCH,
]);

const UNCLE_CODES = new Set<string>([
  HeaderErrorCode.TOO_MANY_UNCLES,
  HeaderErrorCode.UNCLE_NOT_OLDER,
  HeaderErrorCode.UNCLE_TOO_OLD,
  HeaderErrorCode.UNCLE_DUPLICATE,
  HeaderErrorCode.UNCLE_IS_ANCESTOR,
  HeaderErrorCode.UNCLE_ALREADY_INCLUDED,
  HeaderErrorCode.UNCLE_PARENT_UNKNOWN,
  HeaderErrorCode.UNCLE_INVALID,
]);

const HEADER_CODES = new Set<string>([
  ...Object.values(HeaderErrorCode).filter((code) => !BODY_CODES.has(code) && !UNCLE_CODES.has(code)),
  ...Object.values(MergedMiningErrorCode),
]);

/** The fault an INVALID_BLOCK error code points at (anything unknown: the block). */
export function importFault(code: string): ImportFault {
  if (BODY_CODES.has(code)) return "body";
  if (HEADER_CODES.has(code)) return "header";
  return "block";
}
