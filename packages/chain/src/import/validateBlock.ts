/**
 * Every rule a block must pass before it is executed: header rules on their own (with the local
 * clock) and against the parent, fork-detection data from the block's own chain, then the body
 * rules (chain id, REMASC last, gas prices, transactions root, uncles).
 */
import type {Chainspec} from "@xchain/chainspec";
import {
  checkForkDetectionData,
  type HeaderAncestry,
  uncleHeaderRules,
  unclesRule,
  validateHeaderAgainstParent,
  validateHeaderStandalone,
} from "@xchain/consensus";
import {FORK_DETECTION_MIN_BLOCK} from "@xchain/merged-mining";
import type {Block} from "@xchain/primitives";
import type {AncestorView} from "./ancestors.ts";
import {chainIdRule} from "./rules/chainIdRule.ts";
import {gasPriceRule} from "./rules/gasPriceRule.ts";
import {remascRule} from "./rules/remascRule.ts";
import {transactionsRootRule} from "./rules/transactionsRootRule.ts";

// Below block 449 fork-detection data reads no ancestor (docs/protocol/header.md §5), and neither do the uncles there.
const NO_ANCESTRY: HeaderAncestry = {headerByNumber: () => undefined};

/** Throws the `HeaderError`, `MergedMiningError` or `BlockError` of the first rule `block` breaks. */
export async function validateBlock(
  block: Block,
  ancestors: AncestorView,
  chainspec: Chainspec,
  nowSeconds: number,
): Promise<void> {
  const {header} = block;
  validateHeaderStandalone(header, chainspec, {nowSeconds});
  validateHeaderAgainstParent(header, ancestors.parent, chainspec);
  const generations = chainspec.params.uncleGenerationLimit;
  // Uncles' own fork-detection data reaches up to 449 blocks below the oldest possible uncle.
  const ancestry =
    header.number > FORK_DETECTION_MIN_BLOCK
      ? await ancestors.ancestry(header.number - FORK_DETECTION_MIN_BLOCK - generations)
      : NO_ANCESTRY;
  checkForkDetectionData(header, ancestry, chainspec);

  chainIdRule(block, chainspec);
  remascRule(block);
  gasPriceRule(block, chainspec);
  await transactionsRootRule(block);
  const family = block.uncles.length > 0 ? await ancestors.family(generations) : [];
  unclesRule(header, block.uncles, family, chainspec, uncleHeaderRules(chainspec, {nowSeconds, ancestry}));
}
