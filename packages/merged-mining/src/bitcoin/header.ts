/** The 80-byte Bitcoin block header (docs/protocol/merged-mining.md §2). */
import {readUint32LE, sha256d, writeUint32LE} from "@xchain/utils";
import {BTC_HEADER_SIZE, HASH_SIZE} from "../constants.ts";
import {MergedMiningError, MergedMiningErrorCode} from "../errors.ts";

/** A decoded Bitcoin block header; hashes are in internal (wire) byte order. */
export interface BitcoinHeader {
  version: number;
  prevBlockHash: Uint8Array;
  merkleRoot: Uint8Array;
  time: number;
  bits: number;
  nonce: number;
}

/** Offset of the merkle root in the header. */
export const MERKLE_ROOT_OFFSET = 36;
/** Offset of the nonce in the header. */
export const NONCE_OFFSET = 76;

/** Throws BTC_HEADER_INVALID unless `bytes` is exactly one header: anything after 80 bytes is rejected. */
export function assertBitcoinHeaderSize(bytes: Uint8Array): void {
  if (bytes.length !== BTC_HEADER_SIZE) {
    throw new MergedMiningError({code: MergedMiningErrorCode.BTC_HEADER_INVALID, length: bytes.length});
  }
}

/** Decodes an 80-byte header; the hash fields are views into `bytes`. */
export function parseBitcoinHeader(bytes: Uint8Array): BitcoinHeader {
  assertBitcoinHeaderSize(bytes);
  return {
    version: readUint32LE(bytes, 0),
    prevBlockHash: bytes.subarray(4, 4 + HASH_SIZE),
    merkleRoot: bytes.subarray(MERKLE_ROOT_OFFSET, MERKLE_ROOT_OFFSET + HASH_SIZE),
    time: readUint32LE(bytes, 68),
    bits: readUint32LE(bytes, 72),
    nonce: readUint32LE(bytes, NONCE_OFFSET),
  };
}

/** Encodes a header into its 80 bytes. */
export function serializeBitcoinHeader(header: BitcoinHeader): Uint8Array {
  if (header.prevBlockHash.length !== HASH_SIZE || header.merkleRoot.length !== HASH_SIZE) {
    throw new RangeError("Bitcoin header hashes must be 32 bytes");
  }
  const out = new Uint8Array(BTC_HEADER_SIZE);
  writeUint32LE(out, 0, header.version);
  out.set(header.prevBlockHash, 4);
  out.set(header.merkleRoot, MERKLE_ROOT_OFFSET);
  writeUint32LE(out, 68, header.time);
  writeUint32LE(out, 72, header.bits);
  writeUint32LE(out, NONCE_OFFSET, header.nonce);
  return out;
}

/** The block hash, sha256d of the 80 header bytes, in internal byte order (reverse it for display). */
export function bitcoinBlockHash(header80: Uint8Array): Uint8Array {
  assertBitcoinHeaderSize(header80);
  return sha256d(header80);
}
