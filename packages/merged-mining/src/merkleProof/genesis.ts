/**
 * Pre-RSKIP-92 merkle proofs (docs/protocol/merged-mining.md §4, rskj's `GenesisMerkleProofValidator`): a
 * full Bitcoin partial merkle tree, `txCount u32 | varint nHashes | hashes | varint nFlagBytes | flags`,
 * valid when its root is the header's merkle root and the coinbase is among its matched txids. Only old
 * mainnet (below 729,000) uses it. Traversal follows bitcoinj-thin's `PartialMerkleTree`.
 */
import {equalBytes} from "@xchain/utils";
import {ByteReader} from "../bitcoin/codec.ts";
import {BitcoinDecodeError} from "../bitcoin/errors.ts";
import {merkleParent} from "../bitcoin/merkle.ts";
import {HASH_SIZE} from "../constants.ts";
import {MergedMiningError, MergedMiningErrorCode, type MerkleRootMismatchReason} from "../errors.ts";
import {nodesFormA64ByteTransaction} from "./ambiguity.ts";
import type {MerkleProofValidator} from "./rskip92.ts";

// bitcoinj: at most MAX_BLOCK_SIZE / 60 transactions (60 bytes bounds a serialized transaction from below).
const MAX_TRANSACTIONS = Math.floor(1_000_000 / 60);

class InvalidTree extends Error {
  constructor(readonly reason: MerkleRootMismatchReason) {
    super(reason);
  }
}

function treeWidth(transactionCount: number, height: number): number {
  return (transactionCount + (1 << height) - 1) >> height;
}

/** rskj's `GenesisMerkleProofValidator` over a serialized partial merkle tree. */
export class GenesisMerkleProofValidator implements MerkleProofValidator {
  private readonly transactionCount: number;
  /** Hashes in internal byte order, depth-first. */
  private readonly hashes: Uint8Array[] = [];
  private readonly flags: Uint8Array;

  /** Check 1: throws MERKLE_PROOF_INVALID unless the bytes are exactly one serialized partial merkle tree. */
  constructor(serialized: Uint8Array) {
    try {
      const r = new ByteReader(serialized, "partial merkle tree");
      this.transactionCount = r.u32();
      const hashCount = r.count(HASH_SIZE, "hash");
      for (let i = 0; i < hashCount; i++) this.hashes.push(r.bytesView(HASH_SIZE));
      this.flags = r.varBytes("flag bytes");
      r.end();
    } catch (e) {
      if (!(e instanceof BitcoinDecodeError)) throw e;
      throw new MergedMiningError({
        code: MergedMiningErrorCode.MERKLE_PROOF_INVALID,
        reason: "malformed-partial-merkle-tree",
        length: serialized.length,
      });
    }
  }

  verify(merkleRoot: Uint8Array, coinbaseTxid: Uint8Array): void {
    const matched: Uint8Array[] = [];
    let root: Uint8Array;
    try {
      root = this.extract(matched);
    } catch (e) {
      if (!(e instanceof InvalidTree)) throw e;
      throw new MergedMiningError({code: MergedMiningErrorCode.MERKLE_ROOT_MISMATCH, reason: e.reason});
    }
    if (!equalBytes(root, merkleRoot)) {
      throw new MergedMiningError({code: MergedMiningErrorCode.MERKLE_ROOT_MISMATCH, reason: "root-differs"});
    }
    if (!matched.some((txid) => equalBytes(txid, coinbaseTxid))) {
      throw new MergedMiningError({code: MergedMiningErrorCode.MERKLE_ROOT_MISMATCH, reason: "coinbase-not-matched"});
    }
  }

  /** bitcoinj's `getTxnHashAndMerkleRoot`: the root, with the matched txids pushed to `matched`. */
  private extract(matched: Uint8Array[]): Uint8Array {
    const n = this.transactionCount;
    if (n === 0 || n > MAX_TRANSACTIONS || this.hashes.length > n || this.flags.length * 8 < this.hashes.length) {
      throw new InvalidTree("invalid-partial-merkle-tree");
    }
    let height = 0;
    while (treeWidth(n, height) > 1) height++;
    const used = {bits: 0, hashes: 0};
    const root = this.traverse(height, 0, used, matched);
    // Every hash and every flag byte but the padding of the last one must have been consumed.
    if (Math.ceil(used.bits / 8) !== this.flags.length || used.hashes !== this.hashes.length) {
      throw new InvalidTree("invalid-partial-merkle-tree");
    }
    return root;
  }

  private traverse(
    height: number,
    pos: number,
    used: {bits: number; hashes: number},
    matched: Uint8Array[],
  ): Uint8Array {
    if (used.bits >= this.flags.length * 8) throw new InvalidTree("invalid-partial-merkle-tree");
    const bit = used.bits++;
    const parentOfMatch = (((this.flags[bit >> 3] as number) >> (bit & 7)) & 1) === 1;
    if (height === 0 || !parentOfMatch) {
      const hash = this.hashes[used.hashes++];
      if (hash === undefined) throw new InvalidTree("invalid-partial-merkle-tree");
      if (height === 0 && parentOfMatch) matched.push(hash);
      return hash;
    }
    const left = this.traverse(height - 1, pos * 2, used, matched);
    let right = left;
    if (pos * 2 + 1 < treeWidth(this.transactionCount, height - 1)) {
      right = this.traverse(height - 1, pos * 2 + 1, used, matched);
      if (equalBytes(left, right)) throw new InvalidTree("invalid-partial-merkle-tree");
    }
    if (nodesFormA64ByteTransaction(left, right)) throw new InvalidTree("64-byte-transaction");
    return merkleParent(left, right);
  }
}
