/**
 * The 2048-bit logs bloom (Ethereum's, which rskj's `Bloom` reproduces): each log sets three
 * bits for its address and three for each topic, taken from the keccak-256 of the value.
 */
import {keccak256} from "@xchain/utils";
import {LOGS_BLOOM_LENGTH} from "./header/fields.ts";
import type {Log} from "./receipt/log.ts";

/** The three bit positions (0..2047) of a value: 11-bit numbers from hash bytes 0-1, 2-3 and 4-5. */
function bitsOf(value: Uint8Array): number[] {
  const h = keccak256(value);
  return [0, 2, 4].map((i) => (((h[i] as number) & 7) << 8) | (h[i + 1] as number));
}

// Bit 0 is the least significant bit of the last byte (rskj ByteUtil.setBit).
function byteIndex(bit: number): number {
  return LOGS_BLOOM_LENGTH - 1 - (bit >> 3);
}

/** The bloom of a list of logs (a receipt's, or all of a block's). */
export function logsBloom(logs: readonly Log[]): Uint8Array {
  const bloom = new Uint8Array(LOGS_BLOOM_LENGTH);
  for (const log of logs) {
    for (const value of [log.address, ...log.topics]) {
      for (const bit of bitsOf(value)) bloom[byteIndex(bit)] = (bloom[byteIndex(bit)] as number) | (1 << (bit & 7));
    }
  }
  return bloom;
}

/** The union of two blooms, as a new array. */
export function bloomOr(a: Uint8Array, b: Uint8Array): Uint8Array {
  return a.map((byte, i) => byte | (b[i] as number));
}

/** True when the bloom may contain `value` (an address or a topic); false means it certainly does not. */
export function bloomContains(bloom: Uint8Array, value: Uint8Array): boolean {
  return bitsOf(value).every((bit) => ((bloom[byteIndex(bit)] as number) & (1 << (bit & 7))) !== 0);
}
