import type {Chainspec} from "@xchain/chainspec";
import {FORK_DETECTION_MIN_BLOCK, verifyHeaderMergedMining} from "@xchain/merged-mining";
import type {BlockHeader} from "@xchain/primitives";
import {requireMergedMining} from "./requireMergedMining.ts";

/**
 * Proof of work through merged mining (docs/protocol/merged-mining.md §1, rskj `ProofOfWorkRule`,
 * post-RSKIP-98 path): the Bitcoin header, coinbase and merkle proof must commit to the header's
 * hashForMergedMining and meet the difficulty. From block 449 where RSKIP-110 is active, that hash carries
 * the fork-detection data read from the coinbase (docs/protocol/header.md §5). A `MergedMiningError`
 * propagates unchanged: its code names the failed check. Pre-RSKIP-98 fallback (signed) mining is not
 * supported.
 */
export function mergedMiningRule(header: BlockHeader, chainspec: Chainspec): void {
  requireMergedMining(header);
  const height = header.number;
  // verifyHeaderMergedMining keeps rskj's order: the fork-detection data is looked up (and can
  // be missing) only at check 5, after the proof format, sizes and proof of work.
  verifyHeaderMergedMining(header, {
    rskip92Active: chainspec.isRskip92Active(height),
    rskip180Active: chainspec.isActive("RSKIP180", height),
    forkDetectionActive: chainspec.isActive("RSKIP110", height) && height >= FORK_DETECTION_MIN_BLOCK,
  });
}
