export type {MinerTxPool, PendingStateSink} from "./deps.ts";
export {ImpersonatedAccounts, type ImpersonationControls} from "./dev/impersonation.ts";
export type {
  ChainControls,
  EnvironmentControls,
  EnvironmentSettings,
  MinerDevControls,
  MiningControls,
  StateControls,
  TimeControls,
} from "./dev/types.ts";
export {MinerError, type MinerErrorType} from "./errors.ts";
export {bitcoinNonceFromEthNonce, ethWorkPowValue} from "./ethWork.ts";
export type {MinerEvents, SubmissionEvent, SubmissionOutcome, SubmitMethod, WorkMethod} from "./events.ts";
export {Miner} from "./miner.ts";
export {defaultMinerOptions, type MinerOptions} from "./options.ts";
export type {BlockTemplate} from "./template/blockTemplate.ts";
export {type GasLimitInput, nextGasLimit} from "./template/gasLimit.ts";
export {nextMinimumGasPrice} from "./template/minimumGasPrice.ts";
export {
  type MinerApi,
  MinerErrorCode,
  type PendingBlock,
  type PendingBlockSource,
  type StateDumpSource,
  type SubmitBlockResult,
} from "./types.ts";
