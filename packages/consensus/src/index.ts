export {calculateDifficulty} from "./difficulty.ts";
export {HeaderError, HeaderErrorCode, type HeaderErrorType} from "./errors.ts";
export {type ChainHead, cumulativeDifficulty, isBetterHead, totalDifficulty} from "./forkChoice.ts";
export {uncleHeaderRules, validateHeaderAgainstParent, validateHeaderStandalone} from "./headerValidator.ts";
export {btcTimestampRule} from "./rules/btcTimestampRule.ts";
export {difficultyRule} from "./rules/difficultyRule.ts";
export {extraDataRule} from "./rules/extraDataRule.ts";
export {
  checkForkDetectionData,
  FORK_DETECTION_ANCESTORS,
  type ForkDetectionCheck,
  type HeaderAncestry,
} from "./rules/forkDetectionDataRule.ts";
export {gasLimitRule} from "./rules/gasLimitRule.ts";
export {gasUsedRule} from "./rules/gasUsedRule.ts";
export {mergedMiningRule} from "./rules/mergedMiningRule.ts";
export {minGasPriceRule} from "./rules/minGasPriceRule.ts";
export {parentGasLimitRule} from "./rules/parentGasLimitRule.ts";
export {parentNumberRule} from "./rules/parentNumberRule.ts";
export {parentTimestampRule} from "./rules/parentTimestampRule.ts";
export {timestampRule} from "./rules/timestampRule.ts";
export {ummRootRule} from "./rules/ummRootRule.ts";
export {type FamilyAncestor, type UncleHeaderRules, unclesRule} from "./rules/unclesRule.ts";
