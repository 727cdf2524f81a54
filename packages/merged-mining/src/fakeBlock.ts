/**
 * The fake one-transaction Bitcoin block the regtest miner builds around a hashForMergedMining
 * (docs/protocol/mining-rpc.md §6, rskj's `MinerUtils`), and the nonce grinding that seals it.
 */
import {concatBytes, hexToBytes, sha256d, writeUint32LE} from "@xchain/utils";
import {serializeBitcoinBlock} from "./bitcoin/block.ts";
import {type BitcoinHeader, NONCE_OFFSET, serializeBitcoinHeader} from "./bitcoin/header.ts";
import {serializeBitcoinTransaction} from "./bitcoin/transaction.ts";
import {HASH_SIZE, RSK_TAG} from "./constants.ts";
import {bitcoinPowValue} from "./pow.ts";

/** bitcoinj's `ProtocolVersion.CURRENT`, which rskj puts in the (unchecked) version field. */
export const FAKE_BLOCK_VERSION = 70001;
/** Compact bits of the Bitcoin regtest maximum target, 0x7fffff * 256^(0x20 - 3). */
export const REGTEST_MAX_TARGET_BITS = 0x207fffff;
/** 50 BTC, the fake coinbase's payout. */
const FAKE_COINBASE_REWARD = 50n * 100_000_000n;
// rskj pays to `<fresh random key> OP_CHECKSIG`; nobody spends it, so a fixed key (the generator point) will do.
const DEFAULT_PAYOUT_SCRIPT = hexToBytes("210279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798ac");
const NULL_OUTPOINT_INDEX = 0xffffffff;
const FINAL_SEQUENCE = 0xffffffff;

/** What the fake block is built from. */
export interface FakeBitcoinBlockOptions {
  hashForMergedMining: Uint8Array;
  /** Header time, seconds. */
  time: number;
  /** Defaults to the regtest maximum target, 0x207fffff. */
  bits?: number;
  /** Bytes before `RSKBLOCK:` in the tagged output (rskj: 0 to 999 random bytes); default none. */
  prefix?: Uint8Array;
  /** Script of the 50 BTC output; default `<pubkey> OP_CHECKSIG` with a fixed key. */
  payoutScript?: Uint8Array;
}

/** A fake block: its header (nonce 0, to grind), its coinbase in legacy serialization, and the whole block. */
export interface FakeBitcoinBlock {
  header: BitcoinHeader;
  coinbase: Uint8Array;
  block: Uint8Array;
}

/**
 * Builds the fake block: prevBlockHash zero, the given time and bits, nonce 0, one transaction
 * whose single input has an empty script and whose outputs are 50 BTC to `payoutScript` and 0 BTC
 * to the raw bytes `prefix || "RSKBLOCK:" || hashForMergedMining`. With one transaction the merkle
 * root is the coinbase txid and the RSKIP-92 proof is empty.
 */
export function buildFakeBitcoinBlock(options: FakeBitcoinBlockOptions): FakeBitcoinBlock {
  if (options.hashForMergedMining.length !== HASH_SIZE) throw new RangeError("hashForMergedMining must be 32 bytes");
  const coinbase = serializeBitcoinTransaction({
    version: 1,
    inputs: [
      {
        prevTxid: new Uint8Array(HASH_SIZE),
        prevIndex: NULL_OUTPOINT_INDEX,
        script: new Uint8Array(0),
        sequence: FINAL_SEQUENCE,
        witness: [],
      },
    ],
    outputs: [
      {value: FAKE_COINBASE_REWARD, script: options.payoutScript ?? DEFAULT_PAYOUT_SCRIPT},
      {value: 0n, script: concatBytes(options.prefix ?? new Uint8Array(0), RSK_TAG, options.hashForMergedMining)},
    ],
    lockTime: 0,
  });
  const header: BitcoinHeader = {
    version: FAKE_BLOCK_VERSION,
    prevBlockHash: new Uint8Array(HASH_SIZE),
    merkleRoot: sha256d(coinbase),
    time: options.time,
    bits: options.bits ?? REGTEST_MAX_TARGET_BITS,
    nonce: 0,
  };
  return {header, coinbase, block: serializeBitcoinBlock(serializeBitcoinHeader(header), [coinbase])};
}

/**
 * Tries nonces from `header.nonce` upwards until the header's hash is at most `target`; returns the
 * solved 80 bytes, or undefined after `maxAttempts` (at most 2^32) nonces.
 */
export function grindNonce(header: BitcoinHeader, target: bigint, maxAttempts = 2 ** 32): Uint8Array | undefined {
  const bytes = serializeBitcoinHeader(header);
  const attempts = Math.min(maxAttempts, 2 ** 32);
  for (let i = 0; i < attempts; i++) {
    writeUint32LE(bytes, NONCE_OFFSET, (header.nonce + i) >>> 0);
    if (bitcoinPowValue(bytes) <= target) return bytes;
  }
  return undefined;
}
