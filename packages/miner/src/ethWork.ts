/**
 * `eth_getWork`/`eth_submitWork` over merged mining (docs/mining.md, which rskj lacks): for each
 * template the node builds its own one-transaction Bitcoin block (the regtest fake block of
 * docs/protocol/mining-rpc.md §6, its coinbase tagged with the template's hashForMergedMining) and hands out
 * the SHA-256 midstate of the header's first 64 bytes, the 12 header bytes before the nonce, and the target.
 * A miner finishes the double SHA-256 over those 12 bytes and a 4-byte nonce; the node rebuilds the header
 * with the nonce it submits.
 */
import {
  buildFakeBitcoinBlock,
  NONCE_OFFSET,
  SHA256_BLOCK_SIZE,
  serializeBitcoinHeader,
  sha256Midstate,
  sha256Resume,
} from "@xchain/merged-mining";
import {bigIntToFixedBytes, bytesToBigInt, concatBytes, reverseBytes, sha256, writeUint32LE} from "@xchain/utils";
import type {BlockTemplate} from "./template/blockTemplate.ts";

/** The Bitcoin block a template is mined through by eth_getWork. */
export interface EthHeaderWork {
  /** The 80-byte header, nonce 0. */
  header: Uint8Array;
  /** The block's only transaction (legacy serialization), carrying `RSKBLOCK:` + hashForMergedMining. */
  coinbase: Uint8Array;
  /** SHA-256 chaining state after the header's first 64 bytes: H0..H7, 4 bytes big-endian each. */
  midstate: Uint8Array;
}

const WORD_SIZE = 32;
/** Header bytes 64..75: the merkle root's last 4 bytes, time, bits. */
const TAIL_LENGTH = NONCE_OFFSET - SHA256_BLOCK_SIZE;
const MAX_BITCOIN_NONCE = 0xffffffffn;

/** The Bitcoin block of `template` (time = the template's timestamp). */
export function buildEthHeaderWork(template: BlockTemplate): EthHeaderWork {
  const fake = buildFakeBitcoinBlock({
    hashForMergedMining: template.hashForMergedMining,
    time: template.header.timestamp,
  });
  const header = serializeBitcoinHeader(fake.header);
  const state = sha256Midstate(header.subarray(0, SHA256_BLOCK_SIZE));
  const midstate = new Uint8Array(WORD_SIZE);
  const view = new DataView(midstate.buffer);
  for (const [i, word] of state.entries()) view.setUint32(4 * i, word);
  return {header, coinbase: fake.coinbase, midstate};
}

/** The eth_getWork answer: [midstate, the 12 tail bytes followed by 20 zero bytes, the 32-byte big-endian target]. */
export function ethWorkPackage(work: EthHeaderWork, target: bigint): [Uint8Array, Uint8Array, Uint8Array] {
  const tail = new Uint8Array(WORD_SIZE);
  tail.set(work.header.subarray(SHA256_BLOCK_SIZE, NONCE_OFFSET));
  return [work.midstate, tail, bigIntToFixedBytes(target, WORD_SIZE)];
}

/**
 * What a miner compares with the target for `nonce`: sha256d(header) read in display order, the
 * header's first SHA-256 resumed from `midstate` over the 12 `tail` bytes and the nonce
 * (little-endian, as Bitcoin writes it). `tail` may be the padded 32 bytes of eth_getWork.
 */
export function ethWorkPowValue(midstate: Uint8Array, tail: Uint8Array, nonce: number): bigint {
  const view = new DataView(midstate.buffer, midstate.byteOffset, WORD_SIZE);
  const state = Array.from({length: 8}, (_, i) => view.getUint32(4 * i));
  const block = concatBytes(tail.subarray(0, TAIL_LENGTH), new Uint8Array(4));
  writeUint32LE(block, TAIL_LENGTH, nonce);
  return bytesToBigInt(reverseBytes(sha256(sha256Resume(state, BigInt(SHA256_BLOCK_SIZE), block))));
}

/** The Bitcoin nonce an eth_submitWork nonce names: its 8 bytes as a big-endian number, which must be below 2^32. */
export function bitcoinNonceFromEthNonce(nonce: Uint8Array): number | undefined {
  const value = bytesToBigInt(nonce);
  return nonce.length === 8 && value <= MAX_BITCOIN_NONCE ? Number(value) : undefined;
}

/** A copy of the 80-byte `header` with `nonce` in its last 4 bytes (little-endian). */
export function headerWithNonce(header: Uint8Array, nonce: number): Uint8Array {
  const copy = header.slice();
  writeUint32LE(copy, NONCE_OFFSET, nonce);
  return copy;
}
