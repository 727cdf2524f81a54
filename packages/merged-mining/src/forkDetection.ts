/**
 * Fork-detection data (RSKIP-110, docs/protocol/header.md §5 step 3) and hashForMergedMining of a sealed header and of
 * a header being built: from block 449 on, bytes 20..31 of the base hash are replaced by 12 bytes
 * of FDD, which a sealed header carries in its coinbase right after `RSKBLOCK:` and the 20-byte prefix.
 */
import type {BlockHeader} from "@xchain/primitives";
import {concatBytes, lastIndexOfBytes, writeUint32BE} from "@xchain/utils";
import {bitcoinBlockHash} from "./bitcoin/header.ts";
import {
  FORK_DETECTION_DATA_LENGTH,
  FORK_DETECTION_MIN_BLOCK,
  HASH_FOR_MERGED_MINING_PREFIX_LENGTH,
  RSK_TAG,
} from "./constants.ts";
import {MergedMiningError, MergedMiningErrorCode} from "./errors.ts";

/** Number of commit-to-parents bytes, and the spacing of the blocks they come from. */
const CPV_SIZE = 7;
const CPV_JUMP = 64;
/** Uncle counts are summed over the parent and the 31 blocks before it. */
export const FORK_DETECTION_UNCLE_WINDOW = 32;
const MAX_UNCLE_BYTE = 255;

/**
 * Heights of the 7 CPV blocks for block N (parent P = N-1): floor(P/64)*64 - 64*i, i = 0..6. Block N must be
 * at least 449.
 */
export function cpvHeights(blockNumber: number): number[] {
  if (!Number.isSafeInteger(blockNumber) || blockNumber < FORK_DETECTION_MIN_BLOCK) {
    throw new RangeError(`block ${blockNumber} has no fork-detection data (starts at ${FORK_DETECTION_MIN_BLOCK})`);
  }
  const start = Math.floor((blockNumber - 1) / CPV_JUMP) * CPV_JUMP;
  return Array.from({length: CPV_SIZE}, (_, i) => start - CPV_JUMP * i);
}

/**
 * FDD for block N from the Bitcoin block hashes (internal byte order) of the CPV blocks, in the
 * order of `cpvHeights`. Each CPV byte is the last byte of the display-order hash, i.e. the first
 * byte in internal order. `uncleCountSum` is capped at 255.
 */
export function forkDetectionDataFromBlockHashes(
  blockNumber: number,
  cpvBitcoinBlockHashes: readonly Uint8Array[],
  uncleCountSum: number,
): Uint8Array {
  if (cpvBitcoinBlockHashes.length !== CPV_SIZE) {
    throw new RangeError(`fork-detection data needs ${CPV_SIZE} CPV hashes, got ${cpvBitcoinBlockHashes.length}`);
  }
  const fdd = new Uint8Array(FORK_DETECTION_DATA_LENGTH);
  cpvBitcoinBlockHashes.forEach((hash, i) => {
    fdd[i] = hash[0] as number;
  });
  fdd[CPV_SIZE] = Math.min(uncleCountSum, MAX_UNCLE_BYTE);
  // rskj writes `(int) N` big-endian; heights fit 32 bits.
  writeUint32BE(fdd, CPV_SIZE + 1, blockNumber);
  return fdd;
}

/** FDD (12 bytes) for block N from the 80-byte Bitcoin headers of the CPV blocks (order of `cpvHeights`). */
export function computeForkDetectionData(
  blockNumber: number,
  cpvBitcoinHeaders: readonly Uint8Array[],
  uncleCountSum: number,
): Uint8Array {
  return forkDetectionDataFromBlockHashes(blockNumber, cpvBitcoinHeaders.map(bitcoinBlockHash), uncleCountSum);
}

/**
 * The fork-detection data a header carries: the 12 bytes after the last `RSKBLOCK:` + base-hash
 * prefix anywhere in its compressed coinbase (rskj's `getMiningForkDetectionData`). Undefined below
 * block 449, without merged-mining fields, without that tag, or with fewer than 12 bytes after it.
 */
export function readForkDetectionData(header: BlockHeader): Uint8Array | undefined {
  if (header.number < FORK_DETECTION_MIN_BLOCK || !header.mergedMining) return undefined;
  const coinbase = header.mergedMining.coinbase;
  const prefix = header.baseHashForMergedMining().subarray(0, HASH_FOR_MERGED_MINING_PREFIX_LENGTH);
  const position = lastIndexOfBytes(coinbase, concatBytes(RSK_TAG, prefix));
  const start = position + RSK_TAG.length + HASH_FOR_MERGED_MINING_PREFIX_LENGTH;
  if (position < 0 || start + FORK_DETECTION_DATA_LENGTH > coinbase.length) return undefined;
  return coinbase.slice(start, start + FORK_DETECTION_DATA_LENGTH);
}

/**
 * hashForMergedMining of a sealed header (docs/protocol/header.md §5): the base hash, with bytes 20..31 replaced by the
 * FDD read from its coinbase when `forkDetectionActive` (RSKIP-110 active at the header's height)
 * and the header is block 449 or later. Throws COINBASE_MISSING for a header without merged-mining
 * fields and FORK_DETECTION_DATA_NOT_FOUND when the FDD is required but absent. Without FDD the
 * result is the header's cached base hash: do not mutate it.
 */
export function sealedHashForMergedMining(header: BlockHeader, forkDetectionActive: boolean): Uint8Array {
  if (!header.mergedMining) throw new MergedMiningError({code: MergedMiningErrorCode.COINBASE_MISSING});
  const base = header.baseHashForMergedMining();
  if (!forkDetectionActive || header.number < FORK_DETECTION_MIN_BLOCK) return base;
  const fdd = readForkDetectionData(header);
  if (!fdd) {
    throw new MergedMiningError({
      code: MergedMiningErrorCode.FORK_DETECTION_DATA_NOT_FOUND,
      blockNumber: header.number,
    });
  }
  const hash = base.slice();
  hash.set(fdd, HASH_FOR_MERGED_MINING_PREFIX_LENGTH);
  return hash;
}

/** The headers of the chain a header extends, by height (undefined when not known). */
export type AncestorLookup = (blockNumber: number) => BlockHeader | undefined;

/**
 * The heights whose headers the FDD of block N reads: the uncle window (N-32 to N-1, whose
 * uncle counts are summed) and the CPV blocks. Empty below block 449.
 */
export function forkDetectionAncestorHeights(blockNumber: number): number[] {
  if (blockNumber < FORK_DETECTION_MIN_BLOCK) return [];
  const window = Array.from({length: FORK_DETECTION_UNCLE_WINDOW}, (_, i) => blockNumber - 1 - i);
  return [...new Set([...window, ...cpvHeights(blockNumber)])];
}

/**
 * hashForMergedMining of a header being built (docs/protocol/header.md §5): its base hash, with bytes 20..31 replaced
 * from block 449 on, when `forkDetectionActive` (RSKIP-110 at its height), by the FDD computed from
 * the ancestors `ancestorAt` returns (those of `forkDetectionAncestorHeights`). Throws a RangeError
 * when one of them is unknown or has no merged-mining fields.
 */
export function unsealedHashForMergedMining(
  header: BlockHeader,
  ancestorAt: AncestorLookup,
  forkDetectionActive: boolean,
): Uint8Array {
  const base = header.baseHashForMergedMining();
  const height = header.number;
  if (!forkDetectionActive || height < FORK_DETECTION_MIN_BLOCK) return base;
  let uncleCountSum = 0;
  for (let n = height - FORK_DETECTION_UNCLE_WINDOW; n < height; n++)
    uncleCountSum += ancestor(ancestorAt, n).uncleCount;
  const cpvBitcoinHeaders = cpvHeights(height).map((n) => {
    const bitcoinHeader = ancestor(ancestorAt, n).mergedMining?.bitcoinHeader;
    if (!bitcoinHeader) throw new RangeError(`ancestor ${n} has no merged-mining fields`);
    return bitcoinHeader;
  });
  const hash = base.slice();
  hash.set(computeForkDetectionData(height, cpvBitcoinHeaders, uncleCountSum), HASH_FOR_MERGED_MINING_PREFIX_LENGTH);
  return hash;
}

function ancestor(ancestorAt: AncestorLookup, blockNumber: number): BlockHeader {
  const header = ancestorAt(blockNumber);
  if (!header) throw new RangeError(`ancestor ${blockNumber} is not known`);
  return header;
}
