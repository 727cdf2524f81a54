/**
 * The compressed coinbase of RSK headers (docs/protocol/merged-mining.md §3): `n` as 8-byte big-endian || the
 * SHA-256 chaining state after the first `n` bytes (H0..H7, 4-byte big-endian each) || bytes `n..end` (the
 * tail), where `n` is the start of the 64-byte block holding the last `RSKBLOCK:` tag.
 */
import {concatBytes, lastIndexOfBytes, sha256} from "@xchain/utils";
import {HASH_SIZE, MIDSTATE_SIZE_TRIMMED, RSK_TAG, SHA256_BLOCK_SIZE} from "./constants.ts";
import {MergedMiningError, MergedMiningErrorCode} from "./errors.ts";
import {sha256Midstate, sha256Resume} from "./sha256Midstate.ts";

/** A compressed coinbase split into its parts; `tail` is a view into the compressed bytes. */
export interface CompressedCoinbase {
  /** Bytes already hashed, read like rskj as a signed 64-bit integer. */
  byteCount: bigint;
  /** Chaining state H0..H7 after `byteCount` bytes. */
  midstate: Uint32Array;
  tail: Uint8Array;
}

/**
 * Splits a compressed coinbase (check 4). Throws COINBASE_MIDSTATE_INVALID when it is shorter than
 * its 40-byte midstate. A byte count that is not whole 64-byte blocks is accepted, as rskj's
 * BouncyCastle digest accepts it: the tail is hashed from a fresh block and only the length field
 * uses the count, so such a coinbase stands or falls at the merkle check like any other.
 */
export function splitCompressedCoinbase(compressed: Uint8Array): CompressedCoinbase {
  if (compressed.length < MIDSTATE_SIZE_TRIMMED) {
    throw new MergedMiningError({code: MergedMiningErrorCode.COINBASE_MIDSTATE_INVALID, length: compressed.length});
  }
  const view = new DataView(compressed.buffer, compressed.byteOffset, MIDSTATE_SIZE_TRIMMED);
  const byteCount = view.getBigInt64(0);
  const midstate = new Uint32Array(8);
  for (let i = 0; i < 8; i++) midstate[i] = view.getUint32(8 + 4 * i);
  return {byteCount, midstate, tail: compressed.subarray(MIDSTATE_SIZE_TRIMMED)};
}

/** The coinbase txid (internal byte order): SHA-256 resumed over the tail, then SHA-256 once more. */
export function coinbaseTxidFromParts(parts: CompressedCoinbase): Uint8Array {
  return sha256(sha256Resume(parts.midstate, parts.byteCount, parts.tail));
}

/**
 * The coinbase txid (internal byte order) of a compressed coinbase; throws COINBASE_MIDSTATE_INVALID like the
 * split.
 */
export function coinbaseTxidFromCompressed(compressed: Uint8Array): Uint8Array {
  return coinbaseTxidFromParts(splitCompressedCoinbase(compressed));
}

/**
 * Compresses a coinbase given in its legacy serialization (rskj's `compressCoinbase` with the last
 * tag, as the RPC path uses). Without any `RSKBLOCK:` nothing is hashed ahead (rskj: -1 / 64 = 0).
 */
export function compressCoinbase(legacyCoinbaseTx: Uint8Array): Uint8Array {
  const tagPosition = Math.max(lastIndexOfBytes(legacyCoinbaseTx, RSK_TAG), 0);
  const hashed = tagPosition - (tagPosition % SHA256_BLOCK_SIZE);
  const midstate = sha256Midstate(legacyCoinbaseTx.subarray(0, hashed));
  const head = new Uint8Array(MIDSTATE_SIZE_TRIMMED);
  const view = new DataView(head.buffer);
  view.setBigUint64(0, BigInt(hashed));
  for (let i = 0; i < 8; i++) view.setUint32(8 + 4 * i, midstate[i]!);
  return concatBytes(head, legacyCoinbaseTx.subarray(hashed));
}

/**
 * The 32 bytes after the last `RSKBLOCK:` of a coinbase (any serialization): the hashForMergedMining
 * a miner's submission is looked up by (docs/protocol/mining-rpc.md §3). Undefined without a tag or 32 bytes after it.
 */
export function findMergedMiningHash(coinbaseTx: Uint8Array): Uint8Array | undefined {
  const position = lastIndexOfBytes(coinbaseTx, RSK_TAG);
  const start = position + RSK_TAG.length;
  if (position < 0 || start + HASH_SIZE > coinbaseTx.length) return undefined;
  return coinbaseTx.slice(start, start + HASH_SIZE);
}
