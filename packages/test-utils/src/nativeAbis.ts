/**
 * The ABIs (human-readable, for ethers) of the native contracts that `@rsksmart/rsk-precompiled-abis` 8.0.0-REED,
 * the latest on npm, does not ship: BlockHeader (its repository has `abis/blockHeader.json` since, unpublished),
 * Environment and REMASC (none anywhere). Written from rskj's method declarations (docs/protocol/native-contracts.md
 * §3, §4, §11.6).
 */

/** BlockHeader at 0x…01000010: every method takes the block depth first and answers bytes. */
export const BLOCK_HEADER_ABI: readonly string[] = [
  "function getCoinbaseAddress(int256 blockDepth) view returns (bytes)",
  "function getBlockHash(int256 blockDepth) view returns (bytes)",
  "function getMergedMiningTags(int256 blockDepth) view returns (bytes)",
  "function getMinGasPrice(int256 blockDepth) view returns (bytes)",
  "function getGasLimit(int256 blockDepth) view returns (bytes)",
  "function getGasUsed(int256 blockDepth) view returns (bytes)",
  "function getDifficulty(int256 blockDepth) view returns (bytes)",
  "function getBitcoinHeader(int256 blockDepth) view returns (bytes)",
  "function getUncleCoinbaseAddress(int256 blockDepth, int256 uncleIndex) view returns (bytes)",
  "function getDifficultyWithUncles(int256 blockDepth) view returns (bytes)",
  "function getCumulativeWork(int256 blockDepth) view returns (bytes)",
];

/** Environment at 0x…01000011. */
export const ENVIRONMENT_ABI: readonly string[] = ["function getCallStackDepth() view returns (uint32)"];

/** REMASC at 0x…01000008 (docs/protocol/native-contracts.md §11.6; rskj's `RemascContract`). */
export const REMASC_ABI: readonly string[] = [
  "function processMinersFees()",
  "function getStateForDebugging() view returns (bytes)",
];
