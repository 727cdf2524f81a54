/** Proof of work of merged mining (docs/protocol/merged-mining.md §1 check 3, `co/rsk/util/DifficultyUtils.java`). */
import {bytesToBigInt, reverseBytes} from "@xchain/utils";
import {bitcoinBlockHash} from "./bitcoin/header.ts";

const TWO_POW_256 = 1n << 256n;
// Difficulties below 3 use 3, so that the target fits in 256 bits without its top bit.
const MIN_DIFFICULTY_FOR_TARGET = 3n;

/** The target of an RSK difficulty: floor(2^256 / max(difficulty, 3)). */
export function powTarget(difficulty: bigint): bigint {
  return TWO_POW_256 / (difficulty < MIN_DIFFICULTY_FOR_TARGET ? MIN_DIFFICULTY_FOR_TARGET : difficulty);
}

/** The Bitcoin header hash as a number, read in display order (big-endian of the reversed sha256d). */
export function bitcoinPowValue(header80: Uint8Array): bigint {
  return bytesToBigInt(reverseBytes(bitcoinBlockHash(header80)));
}
