/**
 * A Bitcoin partial merkle tree builder for tests (bitcoinj's `PartialMerkleTree.buildFromLeaves`,
 * after Bitcoin Core's `TraverseAndBuild`): xchain only validates these trees (pre-RSKIP-92 proofs).
 */
import {concatBytes} from "@xchain/utils";
import {merkleParent} from "../src/index.ts";

function width(count: number, height: number): number {
  return (count + (1 << height) - 1) >> height;
}

/** bitcoinj's `calcHash`: a node of the full tree, repeating a missing right child. */
function nodeHash(txids: Uint8Array[], height: number, pos: number): Uint8Array {
  if (height === 0) return txids[pos] as Uint8Array;
  const left = nodeHash(txids, height - 1, pos * 2);
  const right = pos * 2 + 1 < width(txids.length, height - 1) ? nodeHash(txids, height - 1, pos * 2 + 1) : left;
  return merkleParent(left, right);
}

/** The tree matching only `txids[matched]`; `extraFlagBytes` appends unused flag bytes (an invalid tree). */
export function buildPartialMerkleTree(
  txids: Uint8Array[],
  matched: number,
  extraFlagBytes = 0,
): {hashes: Uint8Array[]; serialized: Uint8Array} {
  let height = 0;
  while (width(txids.length, height) > 1) height++;
  const bits: boolean[] = [];
  const hashes: Uint8Array[] = [];
  const traverse = (h: number, pos: number) => {
    const parentOfMatch = pos << h <= matched && matched < (pos + 1) << h;
    bits.push(parentOfMatch);
    if (h === 0 || !parentOfMatch) {
      hashes.push(nodeHash(txids, h, pos));
      return;
    }
    traverse(h - 1, pos * 2);
    if (pos * 2 + 1 < width(txids.length, h - 1)) traverse(h - 1, pos * 2 + 1);
  };
  traverse(height, 0);
  const flags = new Uint8Array(Math.ceil(bits.length / 8) + extraFlagBytes);
  bits.forEach((b, i) => {
    if (b) flags[i >> 3] = (flags[i >> 3] as number) | (1 << (i & 7));
  });
  const count = new Uint8Array(4);
  new DataView(count.buffer).setUint32(0, txids.length, true);
  return {
    hashes,
    serialized: concatBytes(count, Uint8Array.of(hashes.length), ...hashes, Uint8Array.of(flags.length), flags),
  };
}
