/**
 * Bitcoin's partial merkle tree (BIP-37 `merkleblock` proof; bitcoinj-thin's `PartialMerkleTree`):
 * `txCount u32 | varint nHashes | hashes | varint nFlagBytes | flags`. It proves that some txids
 * (the matched ones) are leaves of a tree with a given root. Used by pre-RSKIP-92 merged-mining proofs
 * (docs/protocol/merged-mining.md §4) and by the Bridge's peg-ins (docs/protocol/native-contracts.md §10.6).
 */
import {concatBytes, equalBytes} from "@xchain/utils";
import {HASH_SIZE} from "../constants.ts";
import {nodesFormA64ByteTransaction} from "../merkleProof/ambiguity.ts";
import {ByteReader, uint32LE, varIntBytes} from "./codec.ts";
import {BitcoinDecodeError, BitcoinDecodeErrorCode, type PartialMerkleTreeInvalidReason} from "./errors.ts";
import {merkleParent} from "./merkle.ts";

/** A decoded partial merkle tree; hashes in internal byte order, depth-first. */
export interface PartialMerkleTree {
  transactionCount: number;
  hashes: Uint8Array[];
  flags: Uint8Array;
}

/** The root and the matched txids (internal byte order, left to right) of a valid tree. */
export interface PartialMerkleTreeContents {
  root: Uint8Array;
  matched: Uint8Array[];
}

// bitcoinj: at most MAX_BLOCK_SIZE / 60 transactions (60 bytes bounds a serialized transaction from below).
const MAX_TRANSACTIONS = Math.floor(1_000_000 / 60);

function invalid(reason: PartialMerkleTreeInvalidReason): BitcoinDecodeError {
  return new BitcoinDecodeError(
    {code: BitcoinDecodeErrorCode.INVALID_PARTIAL_MERKLE_TREE, reason},
    `invalid partial merkle tree: ${reason}`,
  );
}

function treeWidth(transactionCount: number, height: number): number {
  return (transactionCount + (1 << height) - 1) >> height;
}

function treeHeight(transactionCount: number): number {
  let height = 0;
  while (treeWidth(transactionCount, height) > 1) height++;
  return height;
}

/** Decodes exactly one serialized tree; throws BitcoinDecodeError when the bytes are short or longer than it. */
export function parsePartialMerkleTree(serialized: Uint8Array): PartialMerkleTree {
  const r = new ByteReader(serialized, "partial merkle tree");
  const transactionCount = r.u32();
  const hashCount = r.count(HASH_SIZE, "hash");
  const hashes: Uint8Array[] = [];
  for (let i = 0; i < hashCount; i++) hashes.push(r.bytesView(HASH_SIZE));
  const flags = r.varBytes("flag bytes");
  r.end();
  return {transactionCount, hashes, flags};
}

/**
 * bitcoinj's `getTxnHashAndMerkleRoot`: walks the tree, returning its root and matched txids; throws
 * BitcoinDecodeError INVALID_PARTIAL_MERKLE_TREE when the tree is malformed (wrong counts, unused
 * data, equal siblings) or an inner node's children form a 64-byte transaction.
 */
export function extractPartialMerkleTree(tree: PartialMerkleTree): PartialMerkleTreeContents {
  const {transactionCount: n, hashes, flags} = tree;
  if (n === 0 || n > MAX_TRANSACTIONS || hashes.length > n || flags.length * 8 < hashes.length) {
    throw invalid("invalid-partial-merkle-tree");
  }
  const used = {bits: 0, hashes: 0};
  const matched: Uint8Array[] = [];
  const traverse = (height: number, pos: number): Uint8Array => {
    if (used.bits >= flags.length * 8) throw invalid("invalid-partial-merkle-tree");
    const bit = used.bits++;
    const parentOfMatch = (((flags[bit >> 3] as number) >> (bit & 7)) & 1) === 1;
    if (height === 0 || !parentOfMatch) {
      const hash = hashes[used.hashes++];
      if (hash === undefined) throw invalid("invalid-partial-merkle-tree");
      if (height === 0 && parentOfMatch) matched.push(hash);
      return hash;
    }
    const left = traverse(height - 1, pos * 2);
    let right = left;
    if (pos * 2 + 1 < treeWidth(n, height - 1)) {
      right = traverse(height - 1, pos * 2 + 1);
      if (equalBytes(left, right)) throw invalid("invalid-partial-merkle-tree");
    }
    if (nodesFormA64ByteTransaction(left, right)) throw invalid("64-byte-transaction");
    return merkleParent(left, right);
  };
  const root = traverse(treeHeight(n), 0);
  // Every hash and every flag byte but the padding of the last one must have been consumed.
  if (Math.ceil(used.bits / 8) !== flags.length || used.hashes !== hashes.length) {
    throw invalid("invalid-partial-merkle-tree");
  }
  return {root, matched};
}

/** A node of the full tree over `txids`, repeating a missing right child (bitcoinj's `calcHash`). */
function nodeHash(txids: readonly Uint8Array[], height: number, pos: number): Uint8Array {
  if (height === 0) return txids[pos] as Uint8Array;
  const left = nodeHash(txids, height - 1, pos * 2);
  const right = pos * 2 + 1 < treeWidth(txids.length, height - 1) ? nodeHash(txids, height - 1, pos * 2 + 1) : left;
  return merkleParent(left, right);
}

/**
 * Builds the serialized tree over a block's txids (internal byte order) that matches only
 * `txids[matched]` (bitcoinj's `buildFromLeaves`, Bitcoin Core's `TraverseAndBuild`): what a Bitcoin
 * node's `gettxoutproof` returns after the header. `extraFlagBytes` appends unused flag bytes, which
 * makes the tree invalid (for tests of the rejection).
 */
export function buildPartialMerkleTree(
  txids: readonly Uint8Array[],
  matched: number,
  extraFlagBytes = 0,
): {hashes: Uint8Array[]; serialized: Uint8Array} {
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
    if (pos * 2 + 1 < treeWidth(txids.length, h - 1)) traverse(h - 1, pos * 2 + 1);
  };
  traverse(treeHeight(txids.length), 0);
  const flags = new Uint8Array(Math.ceil(bits.length / 8) + extraFlagBytes);
  bits.forEach((b, i) => {
    if (b) flags[i >> 3] = (flags[i >> 3] as number) | (1 << (i & 7));
  });
  return {
    hashes,
    serialized: concatBytes(
      uint32LE(txids.length),
      varIntBytes(hashes.length),
      ...hashes,
      varIntBytes(flags.length),
      flags,
    ),
  };
}
