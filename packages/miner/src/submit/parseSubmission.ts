/**
 * The three `mnr_submitBitcoinBlock*` forms (docs/protocol/mining-rpc.md §3) turned into the merged-mining fields of a
 * header (RSKIP-92 proof, compressed coinbase) and the hashForMergedMining they name: the 32
 * bytes after the last `RSKBLOCK:` of the coinbase. A segwit coinbase is stripped of its witness
 * (docs/protocol/README.md §2). Bytes that do not parse throw `MinerError(BAD_BITCOIN_DATA)`.
 */
import {
  assertBitcoinHeaderSize,
  BitcoinDecodeError,
  compressCoinbase,
  findMergedMiningHash,
  MergedMiningError,
  mergedMiningFieldsFromBlock,
  parseBitcoinBlock,
  parseBitcoinTransaction,
  rskip92ProofFromMerkleBranch,
  rskip92ProofFromTxids,
} from "@xchain/merged-mining";
import type {MergedMiningFields} from "@xchain/primitives";
import {reverseBytes} from "@xchain/utils";
import {MinerError} from "../errors.ts";
import {MinerErrorCode} from "../types.ts";

/** A solution: the fields to seal the template with, and the work it names (undefined without a tag). */
export interface ParsedSubmission {
  fields: MergedMiningFields;
  hashForMergedMining: Uint8Array | undefined;
}

const HASH_SIZE = 32;

/** `mnr_submitBitcoinBlock`: a full block, coinbase first; the proof is built from all its txids. */
export function parseBitcoinBlockSubmission(block: Uint8Array): ParsedSubmission {
  return decoding(() => {
    const parsed = parseBitcoinBlock(block);
    const coinbase = parsed.transactions[0];
    if (!coinbase) throw bad("the block has no transactions");
    return {fields: mergedMiningFieldsFromBlock(parsed), hashForMergedMining: findMergedMiningHash(coinbase.legacy)};
  });
}

/** `mnr_submitBitcoinBlockTransactions`: header, coinbase, and every txid (coinbase's first) in display order. */
export function parseTransactionsSubmission(
  header: Uint8Array,
  coinbase: Uint8Array,
  txids: readonly Uint8Array[],
): ParsedSubmission {
  if (txids.length === 0) throw bad("no transaction hashes");
  checkHashes(txids);
  return withCoinbase(header, coinbase, rskip92ProofFromTxids(txids.map(reverseBytes)));
}

/**
 * `mnr_submitBitcoinBlockPartialMerkle`: header, coinbase, the coinbase's merkle branch in internal
 * order. The transaction count only matters to pre-RSKIP-92 proofs, which xchain does not build;
 * an empty branch is refused as rskj refuses it.
 */
export function parsePartialMerkleSubmission(
  header: Uint8Array,
  coinbase: Uint8Array,
  branch: readonly Uint8Array[],
  txCount: number,
): ParsedSubmission {
  if (branch.length === 0) throw bad("empty merkle branch");
  if (!Number.isSafeInteger(txCount) || txCount < 1) throw bad(`transaction count ${txCount}`);
  checkHashes(branch);
  return withCoinbase(header, coinbase, rskip92ProofFromMerkleBranch(branch));
}

function withCoinbase(header: Uint8Array, coinbase: Uint8Array, merkleProof: Uint8Array): ParsedSubmission {
  return decoding(() => {
    assertBitcoinHeaderSize(header);
    const legacy = parseBitcoinTransaction(coinbase).legacy;
    return {
      fields: {bitcoinHeader: header, merkleProof, coinbase: compressCoinbase(legacy)},
      hashForMergedMining: findMergedMiningHash(legacy),
    };
  });
}

function checkHashes(hashes: readonly Uint8Array[]): void {
  const wrong = hashes.findIndex((hash) => hash.length !== HASH_SIZE);
  if (wrong >= 0) throw bad(`hash ${wrong} is ${hashes[wrong]?.length} bytes, not 32`);
}

/** Runs a decoder, turning its decode errors into BAD_BITCOIN_DATA. */
function decoding<T>(decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    if (e instanceof BitcoinDecodeError || e instanceof MergedMiningError) throw bad(`${e.type.code}: ${e.message}`);
    throw e;
  }
}

function bad(reason: string): MinerError {
  return new MinerError({code: MinerErrorCode.BAD_BITCOIN_DATA, reason});
}
