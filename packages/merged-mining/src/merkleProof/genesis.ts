/**
 * Pre-RSKIP-92 merkle proofs (docs/protocol/merged-mining.md §4, rskj's `GenesisMerkleProofValidator`): a
 * full Bitcoin partial merkle tree, `txCount u32 | varint nHashes | hashes | varint nFlagBytes | flags`,
 * valid when its root is the header's merkle root and the coinbase is among its matched txids. Only old
 * mainnet (below 729,000) uses it. Traversal follows bitcoinj-thin's `PartialMerkleTree`.
 */
import {equalBytes} from "@xchain/utils";
import {BitcoinDecodeError, BitcoinDecodeErrorCode} from "../bitcoin/errors.ts";
import {
  extractPartialMerkleTree,
  type PartialMerkleTree,
  type PartialMerkleTreeContents,
  parsePartialMerkleTree,
} from "../bitcoin/partialMerkleTree.ts";
import {MergedMiningError, MergedMiningErrorCode} from "../errors.ts";
import type {MerkleProofValidator} from "./rskip92.ts";

/** rskj's `GenesisMerkleProofValidator` over a serialized partial merkle tree. */
export class GenesisMerkleProofValidator implements MerkleProofValidator {
  private readonly tree: PartialMerkleTree;

  /** Check 1: throws MERKLE_PROOF_INVALID unless the bytes are exactly one serialized partial merkle tree. */
  constructor(serialized: Uint8Array) {
    try {
      this.tree = parsePartialMerkleTree(serialized);
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
    let contents: PartialMerkleTreeContents;
    try {
      contents = extractPartialMerkleTree(this.tree);
    } catch (e) {
      if (!(e instanceof BitcoinDecodeError) || e.type.code !== BitcoinDecodeErrorCode.INVALID_PARTIAL_MERKLE_TREE) {
        throw e;
      }
      throw new MergedMiningError({code: MergedMiningErrorCode.MERKLE_ROOT_MISMATCH, reason: e.type.reason});
    }
    if (!equalBytes(contents.root, merkleRoot)) {
      throw new MergedMiningError({code: MergedMiningErrorCode.MERKLE_ROOT_MISMATCH, reason: "root-differs"});
    }
    if (!contents.matched.some((txid) => equalBytes(txid, coinbaseTxid))) {
      throw new MergedMiningError({code: MergedMiningErrorCode.MERKLE_ROOT_MISMATCH, reason: "coinbase-not-matched"});
    }
  }
}
