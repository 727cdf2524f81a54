/**
 * The header rules grouped as the node runs them: those a header passes on its own, and those
 * that need its parent. Rules run cheapest first; proof of work (hashing the Bitcoin header,
 * the coinbase and the merkle proof) comes last. The fork-detection data rule needs the
 * ancestors and the uncle rule needs the block body: see `rules/`.
 */
import type {Chainspec} from "@xchain/chainspec";
import type {BlockHeader} from "@xchain/primitives";
import {btcTimestampRule} from "./rules/btcTimestampRule.ts";
import {difficultyRule} from "./rules/difficultyRule.ts";
import {extraDataRule} from "./rules/extraDataRule.ts";
import {checkForkDetectionData, type HeaderAncestry} from "./rules/forkDetectionDataRule.ts";
import {gasLimitRule} from "./rules/gasLimitRule.ts";
import {gasUsedRule} from "./rules/gasUsedRule.ts";
import {mergedMiningRule} from "./rules/mergedMiningRule.ts";
import {minGasPriceRule} from "./rules/minGasPriceRule.ts";
import {parentGasLimitRule} from "./rules/parentGasLimitRule.ts";
import {parentNumberRule} from "./rules/parentNumberRule.ts";
import {parentTimestampRule} from "./rules/parentTimestampRule.ts";
import {timestampRule} from "./rules/timestampRule.ts";
import {ummRootRule} from "./rules/ummRootRule.ts";
import type {UncleHeaderRules} from "./rules/unclesRule.ts";

/** What the standalone rules need besides the header: the local clock, read by the caller. */
export interface StandaloneContext {
  nowSeconds: number;
}

/**
 * The rules a sealed header passes on its own: ummRoot presence, extraData size, gas limit
 * minimum, gasUsed ≤ gasLimit, timestamp not in the future, the Bitcoin time link and proof of
 * work. Throws `HeaderError`, or the `MergedMiningError` of the failed proof-of-work check.
 */
export function validateHeaderStandalone(header: BlockHeader, chainspec: Chainspec, context: StandaloneContext): void {
  ummRootRule(header, chainspec);
  extraDataRule(header, chainspec);
  gasLimitRule(header, chainspec);
  gasUsedRule(header);
  timestampRule(header, chainspec, context.nowSeconds);
  btcTimestampRule(header, chainspec);
  mergedMiningRule(header, chainspec);
}

/**
 * The rules against the parent: number and parentHash first (nothing else means anything for
 * a header that does not extend `parent`), then timestamp order, difficulty, minimumGasPrice
 * band and gas limit band. Throws `HeaderError`.
 */
export function validateHeaderAgainstParent(header: BlockHeader, parent: BlockHeader, chainspec: Chainspec): void {
  parentNumberRule(header, parent);
  parentTimestampRule(header, parent, chainspec);
  difficultyRule(header, parent, chainspec);
  minGasPriceRule(header, parent);
  parentGasLimitRule(header, parent, chainspec);
}

/**
 * The real header rules of an uncle for `unclesRule` (docs/protocol/consensus.md §3, rskj's uncle validator): ummRoot
 * presence (rskj enforces it when decoding), gasUsed, timestamps, the Bitcoin time link, proof
 * of work and fork-detection data on their own; every parent rule against the uncle's parent.
 * extraData size and the gas limit minimum are block rules in rskj and do not apply to uncles.
 * `ancestry` is the including block's: the uncle's parent is one of its ancestors, so the
 * uncle's own ancestors are too. Fork-detection data is compared where the ancestry allows.
 */
export function uncleHeaderRules(
  chainspec: Chainspec,
  context: StandaloneContext & {ancestry: HeaderAncestry},
): UncleHeaderRules {
  return {
    standalone: (uncle) => {
      ummRootRule(uncle, chainspec);
      gasUsedRule(uncle);
      timestampRule(uncle, chainspec, context.nowSeconds);
      btcTimestampRule(uncle, chainspec);
      mergedMiningRule(uncle, chainspec);
      checkForkDetectionData(uncle, context.ancestry, chainspec);
    },
    againstParent: (uncle, parent) => validateHeaderAgainstParent(uncle, parent, chainspec),
  };
}
