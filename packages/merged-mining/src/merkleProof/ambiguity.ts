/**
 * The leaf/node ambiguity defence of rskj's merkle checks (docs/protocol/merged-mining.md §4,
 * `checkNotAValid64ByteTransaction` in MerkleTreeUtils and bitcoinj-thin's PartialMerkleTree): a 64-byte left
 * || right pair that parses as a plausible one-input, one-output Bitcoin transaction is refused as a merkle
 * node.
 */
import {readUint32LE} from "@xchain/utils";
import {HASH_SIZE} from "../constants.ts";

const MAX_OUTPOINT_INDEX = 1_000_000;
const COINBASE_OUTPOINT_INDEX = 0xffffffff;
const MAX_SATOSHIS = 21_000_000 * 100_000_000;
const TWO_POW_32 = 0x1_0000_0000;

/**
 * True when the two child hashes (internal byte order) would form a plausible 64-byte transaction.
 * rskj runs the test on the hashes in display order (its `Sha256Hash.getBytes()`), so both are
 * reversed here before the bytes are read as a transaction.
 */
export function nodesFormA64ByteTransaction(left: Uint8Array, right: Uint8Array): boolean {
  const tx = new Uint8Array(2 * HASH_SIZE);
  for (let i = 0; i < HASH_SIZE; i++) {
    tx[i] = left[HASH_SIZE - 1 - i] as number;
    tx[HASH_SIZE + i] = right[HASH_SIZE - 1 - i] as number;
  }
  // version (4) | input count (1) | outpoint hash (32) | outpoint index (4) | script length (1) ...
  if (tx[4] !== 1) return false;
  const outpointIndex = readUint32LE(tx, 37);
  if (outpointIndex > MAX_OUTPOINT_INDEX && outpointIndex !== COINBASE_OUTPOINT_INDEX) return false;
  // Java reads the lengths as signed bytes, so 0x80..0xff fail the "0 to 4" test like anything above 4.
  const inputScriptLength = tx[41] as number;
  if (inputScriptLength > 4) return false;
  // ... input script | sequence (4) | output count (1) | value (8, signed) | script length (1)
  let offset = 42 + inputScriptLength + 4;
  if (tx[offset] !== 1) return false;
  offset += 1;
  const valueHigh = readUint32LE(tx, offset + 4);
  if (valueHigh >= 0x8000_0000) return false; // negative as a signed 64-bit value
  const value = valueHigh * TWO_POW_32 + readUint32LE(tx, offset);
  if (value < 1 || value > MAX_SATOSHIS) return false;
  const outputScriptLength = tx[offset + 8] as number;
  if (outputScriptLength > 4) return false;
  return inputScriptLength + outputScriptLength === 4;
}
