/**
 * Protocol constants of merged mining (docs/protocol/header.md §5, docs/protocol/merged-mining.md;
 * `mergedMining` in network-params.json).
 */
import {utf8ToBytes} from "@xchain/utils";

/** The ASCII tag `RSKBLOCK:` that precedes hashForMergedMining in the Bitcoin coinbase. Never mutate it. */
export const RSK_TAG: Uint8Array = utf8ToBytes("RSKBLOCK:");
/** Size of a Bitcoin block header. */
export const BTC_HEADER_SIZE = 80;
/** Size of a SHA-256 or keccak-256 hash. */
export const HASH_SIZE = 32;
/** Size of one SHA-256 message block. */
export const SHA256_BLOCK_SIZE = 64;
/**
 * The compressed coinbase starts with an 8-byte byte count and eight 4-byte chaining words
 * (docs/protocol/merged-mining.md §3).
 */
export const MIDSTATE_SIZE_TRIMMED = 40;
/** The expected tag must start before this position in the coinbase tail (check 6). */
export const MAX_TAG_POSITION_IN_TAIL = 64;
/** At most this many coinbase bytes may follow hashForMergedMining (check 8). */
export const MAX_BYTES_AFTER_MERGED_MINING_HASH = 128;
/** The whole coinbase must be longer than this (check 9). */
export const MIN_COINBASE_LENGTH_EXCLUSIVE = 64;
/** Largest RSKIP-92 merkle proof once RSKIP-180 is active (check 1). */
export const MAX_MERKLE_PROOF_LENGTH = 960;
/** First block whose hashForMergedMining carries fork-detection data (docs/protocol/header.md §5 step 3). */
export const FORK_DETECTION_MIN_BLOCK = 449;
/** hashForMergedMining keeps this many bytes of the base hash; the fork-detection data follows. */
export const HASH_FOR_MERGED_MINING_PREFIX_LENGTH = 20;
/** Length of the fork-detection data. */
export const FORK_DETECTION_DATA_LENGTH = 12;
