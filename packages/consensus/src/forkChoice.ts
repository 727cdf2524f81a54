/**
 * Total difficulty and the choice of the best chain head (docs/protocol/consensus.md §2, rskj
 * `BlockChainImpl`, `SelectionRule`).
 */
import type {BlockHeader} from "@xchain/primitives";
import {compareBytes} from "@xchain/utils";

/** A block's own difficulty plus its uncles' (rskj `Block.getCumulativeDifficulty`). */
export function cumulativeDifficulty(
  header: Pick<BlockHeader, "difficulty">,
  uncles: readonly Pick<BlockHeader, "difficulty">[],
): bigint {
  let total = header.difficulty;
  for (const uncle of uncles) total += uncle.difficulty;
  return total;
}

/** A chain's total difficulty after appending a block: the parent's total plus the block's cumulative difficulty. */
export function totalDifficulty(
  parentTotalDifficulty: bigint,
  header: Pick<BlockHeader, "difficulty">,
  uncles: readonly Pick<BlockHeader, "difficulty">[],
): bigint {
  return parentTotalDifficulty + cumulativeDifficulty(header, uncles);
}

/** A chain head as fork choice sees it. */
export interface ChainHead {
  header: Pick<BlockHeader, "paidFees" | "hash">;
  totalDifficulty: bigint;
}

/**
 * True when `candidate` should replace `current` as the best head: strictly higher total
 * difficulty; on a tie, more than twice the current head's paidFees, or else a smaller hash
 * (unsigned lexicographic) provided the current head's paidFees are below twice the candidate's.
 */
export function isBetterHead(candidate: ChainHead, current: ChainHead): boolean {
  if (candidate.totalDifficulty !== current.totalDifficulty) {
    return candidate.totalDifficulty > current.totalDifficulty;
  }
  const candidateFees = candidate.header.paidFees;
  const currentFees = current.header.paidFees;
  if (candidateFees > 2n * currentFees) return true;
  return currentFees < 2n * candidateFees && compareBytes(candidate.header.hash(), current.header.hash()) < 0;
}
