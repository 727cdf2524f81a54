import type {Chainspec} from "@xchain/chainspec";
import {
  computeForkDetectionData,
  cpvHeights,
  FORK_DETECTION_MIN_BLOCK,
  FORK_DETECTION_UNCLE_WINDOW,
  findMergedMiningHash,
  HASH_FOR_MERGED_MINING_PREFIX_LENGTH,
  readForkDetectionData,
} from "@xchain/merged-mining";
import type {BlockHeader} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import {HeaderError, HeaderErrorCode} from "../errors.ts";

/**
 * The header's main-chain ancestors by height. It must follow the header's own chain back from
 * its parentHash (not simply the best chain), like rskj's `ConsensusValidationMainchainView`.
 */
export interface HeaderAncestry {
  headerByNumber(n: number): BlockHeader | undefined;
}

/** How many ancestors, from the parent back, the rule reads (rskj's whole mainchain view). */
export const FORK_DETECTION_ANCESTORS = FORK_DETECTION_MIN_BLOCK;

/** The outcome of the fork-detection rule when it does not throw. */
export type ForkDetectionCheck =
  /** The rule ran to completion and the header passed. */
  | {checked: true}
  /** RSKIP-110 is not active at this height, or the height is 449, which rskj never compares. */
  | {checked: false; reason: "inactive" | "boundary"}
  /** An ancestor of the 449 is not in the ancestry (or lacks merged-mining fields); the data was not compared. */
  | {checked: false; reason: "ancestor-missing"; missingNumber: number};

/**
 * The fork-detection data rule (docs/protocol/header.md §5, rskj `ForkDetectionDataRule`), where RSKIP-110 is active:
 * - below 449 the header must commit to its plain hashForMergedMining, not to fork-detection data;
 * - above 449 the 12 bytes read from the coinbase must equal the data computed from the 449
 *   ancestors (CPV Bitcoin headers, the uncle counts of the parent and the 31 before it, the height);
 * - at 449 the header carries the data but rskj does not compare it; neither does xchain.
 * Throws a `HeaderError`; returns whether the comparison ran. Where an ancestor is missing it
 * reports `ancestor-missing` instead of failing (rskj, which always has the chain, rejects).
 * Run it after proof of work, which guarantees a well-formed coinbase.
 */
export function checkForkDetectionData(
  header: BlockHeader,
  ancestry: HeaderAncestry,
  chainspec: Chainspec,
): ForkDetectionCheck {
  const height = header.number;
  if (!chainspec.isActive("RSKIP110", height)) return {checked: false, reason: "inactive"};
  if (height < FORK_DETECTION_MIN_BLOCK) {
    checkNoForkDetectionData(header);
    return {checked: true};
  }
  if (height === FORK_DETECTION_MIN_BLOCK) return {checked: false, reason: "boundary"};

  // Like rskj, require the whole view of FORK_DETECTION_MIN_BLOCK ancestors from the parent back,
  // although the data reads only the 32-block uncle window and the 7 CPV blocks inside it.
  let uncleCountSum = 0;
  for (let n = height - 1; n >= height - FORK_DETECTION_MIN_BLOCK; n--) {
    const ancestor = ancestry.headerByNumber(n);
    if (!ancestor) return {checked: false, reason: "ancestor-missing", missingNumber: n};
    if (n >= height - FORK_DETECTION_UNCLE_WINDOW) uncleCountSum += ancestor.uncleCount;
  }
  const cpvBitcoinHeaders: Uint8Array[] = [];
  for (const n of cpvHeights(height)) {
    const bitcoinHeader = ancestry.headerByNumber(n)?.mergedMining?.bitcoinHeader;
    if (!bitcoinHeader) return {checked: false, reason: "ancestor-missing", missingNumber: n};
    cpvBitcoinHeaders.push(bitcoinHeader);
  }
  const expected = computeForkDetectionData(height, cpvBitcoinHeaders, uncleCountSum);
  const actual = readForkDetectionData(header);
  if (actual === undefined || !equalBytes(actual, expected)) {
    throw new HeaderError({code: HeaderErrorCode.FORK_DETECTION_DATA_MISMATCH, expected, actual});
  }
  return {checked: true};
}

/**
 * rskj never reads fork-detection data from a decoded header below 449, so its "must not carry"
 * branch cannot fire on one. xchain gives it a meaning: a coinbase whose last `RSKBLOCK:` tag
 * commits to this header's 20-byte prefix followed by anything but the plain hash's remaining 12
 * bytes carries fork-detection data. (A tag with another prefix is a proof-of-work failure.)
 */
function checkNoForkDetectionData(header: BlockHeader): void {
  const coinbase = header.mergedMining?.coinbase;
  const committed = coinbase && findMergedMiningHash(coinbase);
  if (!committed) return;
  const base = header.baseHashForMergedMining();
  const prefixLength = HASH_FOR_MERGED_MINING_PREFIX_LENGTH;
  if (!equalBytes(committed.subarray(0, prefixLength), base.subarray(0, prefixLength))) return;
  const actual = committed.subarray(prefixLength);
  if (!equalBytes(actual, base.subarray(prefixLength))) {
    throw new HeaderError({code: HeaderErrorCode.FORK_DETECTION_DATA_UNEXPECTED, actual});
  }
}
