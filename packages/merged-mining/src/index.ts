export {parseBitcoinBlock, serializeBitcoinBlock} from "./bitcoin/block.ts";
export {uint32LE, uint64LE} from "./bitcoin/codec.ts";
export {decodeCompactBits, encodeCompactBits, workOfTarget} from "./bitcoin/compact.ts";
export {
  BitcoinDecodeError,
  BitcoinDecodeErrorCode,
  type BitcoinDecodeErrorType,
  type PartialMerkleTreeInvalidReason,
} from "./bitcoin/errors.ts";
export {
  assertBitcoinHeaderSize,
  type BitcoinHeader,
  bitcoinBlockHash,
  NONCE_OFFSET,
  parseBitcoinHeader,
  serializeBitcoinHeader,
} from "./bitcoin/header.ts";
export {bitcoinMerkleRoot, coinbaseMerkleBranch, merkleParent} from "./bitcoin/merkle.ts";
export {
  buildPartialMerkleTree,
  extractPartialMerkleTree,
  type PartialMerkleTree,
  type PartialMerkleTreeContents,
  parsePartialMerkleTree,
} from "./bitcoin/partialMerkleTree.ts";
export {
  OP_0,
  OP_RETURN,
  p2pkhOutputScript,
  p2shOutputScript,
  parseScriptChunks,
  type ScriptChunk,
} from "./bitcoin/script.ts";
export {
  type BitcoinTransaction,
  type BitcoinTxInput,
  type BitcoinTxOutput,
  bitcoinTxid,
  type ParsedBitcoinTransaction,
  parseBitcoinTransaction,
  serializeBitcoinTransaction,
  stripWitness,
} from "./bitcoin/transaction.ts";
export {
  coinbaseTxidFromCompressed,
  compressCoinbase,
  findMergedMiningHash,
  splitCompressedCoinbase,
} from "./coinbase.ts";
export {
  FORK_DETECTION_MIN_BLOCK,
  HASH_FOR_MERGED_MINING_PREFIX_LENGTH,
  RSK_TAG,
  SHA256_BLOCK_SIZE,
} from "./constants.ts";
export {MergedMiningError, MergedMiningErrorCode, type MergedMiningErrorType} from "./errors.ts";
export {buildFakeBitcoinBlock, FAKE_BLOCK_VERSION, grindNonce, REGTEST_MAX_TARGET_BITS} from "./fakeBlock.ts";
export {
  type AncestorLookup,
  computeForkDetectionData,
  cpvHeights,
  FORK_DETECTION_UNCLE_WINDOW,
  forkDetectionAncestorHeights,
  forkDetectionDataFromBlockHashes,
  readForkDetectionData,
  sealedHashForMergedMining,
  unsealedHashForMergedMining,
} from "./forkDetection.ts";
export {nodesFormA64ByteTransaction} from "./merkleProof/ambiguity.ts";
export {GenesisMerkleProofValidator} from "./merkleProof/genesis.ts";
export {
  Rskip92MerkleProofValidator,
  rskip92ProofFromMerkleBranch,
  rskip92ProofFromTxids,
} from "./merkleProof/rskip92.ts";
export {bitcoinPowValue, powTarget} from "./pow.ts";
export {SHA256_INITIAL_STATE, sha256Midstate, sha256Resume} from "./sha256Midstate.ts";
export {mergedMiningFieldsFromBlock} from "./submission.ts";
export {
  type MergedMiningProofInput,
  type MergedMiningRules,
  verifyHeaderMergedMining,
  verifyMergedMiningProof,
} from "./verify.ts";
