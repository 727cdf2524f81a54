/**
 * RSKIP-92 merkle proofs (docs/protocol/merged-mining.md §4): the coinbase's merkle branch, from the leaves
 * up to just below the root, each 32-byte sibling stored byte-reversed (display order). The coinbase is
 * always the leftmost leaf, so the running hash is always the left operand.
 */
import {concatBytes, equalBytes, reverseBytes} from "@xchain/utils";
import {coinbaseMerkleBranch, merkleParent} from "../bitcoin/merkle.ts";
import {HASH_SIZE, MAX_MERKLE_PROOF_LENGTH} from "../constants.ts";
import {MergedMiningError, MergedMiningErrorCode} from "../errors.ts";
import {nodesFormA64ByteTransaction} from "./ambiguity.ts";

/** Checks a coinbase txid against a Bitcoin merkle root with a merkle proof already checked for format. */
export interface MerkleProofValidator {
  /** Throws MERKLE_ROOT_MISMATCH unless `coinbaseTxid` reaches `merkleRoot` (both internal byte order). */
  verify(merkleRoot: Uint8Array, coinbaseTxid: Uint8Array): void;
}

/** rskj's `Rskip92MerkleProofValidator`. */
export class Rskip92MerkleProofValidator implements MerkleProofValidator {
  /** Check 1: throws MERKLE_PROOF_INVALID for a proof over 960 bytes (RSKIP-180) or not a multiple of 32. */
  constructor(
    private readonly proof: Uint8Array,
    rskip180Active: boolean,
  ) {
    if (rskip180Active && proof.length > MAX_MERKLE_PROOF_LENGTH) {
      throw new MergedMiningError({
        code: MergedMiningErrorCode.MERKLE_PROOF_INVALID,
        reason: "too-long",
        length: proof.length,
      });
    }
    if (proof.length % HASH_SIZE !== 0) {
      throw new MergedMiningError({
        code: MergedMiningErrorCode.MERKLE_PROOF_INVALID,
        reason: "not-a-multiple-of-32",
        length: proof.length,
      });
    }
  }

  verify(merkleRoot: Uint8Array, coinbaseTxid: Uint8Array): void {
    let current = coinbaseTxid;
    for (let offset = 0; offset < this.proof.length; offset += HASH_SIZE) {
      const sibling = reverseBytes(this.proof.subarray(offset, offset + HASH_SIZE));
      if (nodesFormA64ByteTransaction(current, sibling)) {
        throw new MergedMiningError({code: MergedMiningErrorCode.MERKLE_ROOT_MISMATCH, reason: "64-byte-transaction"});
      }
      current = merkleParent(current, sibling);
    }
    if (!equalBytes(current, merkleRoot)) {
      throw new MergedMiningError({code: MergedMiningErrorCode.MERKLE_ROOT_MISMATCH, reason: "root-differs"});
    }
  }
}

/**
 * An RSKIP-92 proof from a pool's merkle branch hashes (internal byte order, leaves up), as
 * `mnr_submitBitcoinBlockPartialMerkle` receives them (docs/protocol/mining-rpc.md §3): each is byte-reversed.
 */
export function rskip92ProofFromMerkleBranch(branch: readonly Uint8Array[]): Uint8Array {
  return concatBytes(...branch.map(reverseBytes));
}

/**
 * An RSKIP-92 proof from all of a block's txids (internal byte order, coinbase first), as
 * `mnr_submitBitcoinBlock` and `mnr_submitBitcoinBlockTransactions` build it (docs/protocol/mining-rpc.md
 * §3). rskj goes through a partial merkle tree matching only the coinbase; its hashes after the first are
 * exactly the coinbase's merkle branch.
 */
export function rskip92ProofFromTxids(txids: readonly Uint8Array[]): Uint8Array {
  return rskip92ProofFromMerkleBranch(coinbaseMerkleBranch(txids));
}
