/** Bitcoin's transaction merkle tree over txids in internal byte order (odd levels repeat their last node). */
import {sha256d} from "@xchain/utils";
import {HASH_SIZE} from "../constants.ts";

/** One merkle step: sha256d(left || right), internal byte order in and out. */
export function merkleParent(left: Uint8Array, right: Uint8Array): Uint8Array {
  const pair = new Uint8Array(2 * HASH_SIZE);
  pair.set(left, 0);
  pair.set(right, HASH_SIZE);
  return sha256d(pair);
}

function nextLevel(level: readonly Uint8Array[]): Uint8Array[] {
  const parents: Uint8Array[] = [];
  for (let i = 0; i < level.length; i += 2) {
    const left = level[i] as Uint8Array;
    parents.push(merkleParent(left, level[i + 1] ?? left));
  }
  return parents;
}

/** The merkle root of a block's txids (coinbase first); 32 zero bytes for an empty list, as in Bitcoin Core. */
export function bitcoinMerkleRoot(txids: readonly Uint8Array[]): Uint8Array {
  if (txids.length === 0) return new Uint8Array(HASH_SIZE);
  let level = txids;
  while (level.length > 1) level = nextLevel(level);
  return level[0] as Uint8Array;
}

/**
 * The merkle branch of the first transaction (the coinbase): its sibling at each level, from the
 * leaves up to just below the root, internal byte order. Empty for a single-transaction block.
 */
export function coinbaseMerkleBranch(txids: readonly Uint8Array[]): Uint8Array[] {
  const branch: Uint8Array[] = [];
  let level = txids;
  while (level.length > 1) {
    // The leftmost node's sibling always exists: a level with more than one node has a second one.
    branch.push(level[1] as Uint8Array);
    level = nextLevel(level);
  }
  return branch;
}
