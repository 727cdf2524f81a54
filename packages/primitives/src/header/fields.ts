/** Field layout of a version-0 Rootstock block header (docs/protocol/header.md §1). */

/** Index of each base field in the header's RLP list. */
export enum HeaderField {
  parentHash = 0,
  unclesHash = 1,
  coinbase = 2,
  stateRoot = 3,
  txTrieRoot = 4,
  receiptTrieRoot = 5,
  logsBloom = 6,
  difficulty = 7,
  number = 8,
  gasLimit = 9,
  gasUsed = 10,
  timestamp = 11,
  extraData = 12,
  paidFees = 13,
  minimumGasPrice = 14,
  uncleCount = 15,
}

/** Number of base fields (0..15) every header has. */
export const BASE_FIELD_COUNT = 16;
/** Number of merged-mining fields (Bitcoin header, merkle proof, compressed coinbase). */
export const MERGED_MINING_FIELD_COUNT = 3;
/** Length of a logs bloom. */
export const LOGS_BLOOM_LENGTH = 256;
/** Length of `ummRoot` when it is not empty (RSKIP-UMM). */
export const UMM_ROOT_LENGTH = 20;

/** The typed values of a header, as a miner or test builds one. */
export interface HeaderValues {
  parentHash: Uint8Array;
  unclesHash: Uint8Array;
  /** 20 bytes; rskj also accepts the empty string for the null address. */
  coinbase: Uint8Array;
  stateRoot: Uint8Array;
  txTrieRoot: Uint8Array;
  receiptTrieRoot: Uint8Array;
  logsBloom: Uint8Array;
  difficulty: bigint;
  number: number;
  gasLimit: bigint;
  gasUsed: bigint;
  /** Seconds since the epoch. */
  timestamp: number;
  extraData: Uint8Array;
  paidFees: bigint;
  minimumGasPrice: bigint;
  uncleCount: number;
  /** Present iff RSKIP-UMM is active at this height: empty, or exactly 20 bytes. */
  ummRoot?: Uint8Array;
  /** The three merged-mining fields, absent on a header that is still being mined. */
  mergedMining?: MergedMiningFields;
}

/** The proof that a Bitcoin block commits to this header (docs/protocol/merged-mining.md). */
export interface MergedMiningFields {
  /** The 80-byte Bitcoin block header. */
  bitcoinHeader: Uint8Array;
  /** RSKIP-92 merkle proof (sibling hashes, display order) or, before it, a Bitcoin partial merkle tree. */
  merkleProof: Uint8Array;
  /** The compressed coinbase: 8-byte length, 32-byte SHA-256 midstate, tail (docs/protocol/merged-mining.md §3). */
  coinbase: Uint8Array;
}
