export {type AssembledHeaderParts, assembledHeaderValues} from "./assembledHeader.ts";
export {blockContextOf} from "./blockContext.ts";
export {BlockExecutor} from "./blockExecutor.ts";
export {CallService, type CallServiceModules, type CallServiceOptions} from "./calls/callService.ts";
export {CallWorkerError, CallWorkerErrorCode, type CallWorkerErrorType} from "./calls/errors.ts";
export type {CallWorkerData} from "./calls/messages.ts";
export {callWorkerCount} from "./calls/workerCount.ts";
export {createChainCommon, createProfileCommon, RSK_EIPS, RSK_HARDFORK} from "./common.ts";
export {
  BlockExecutionError,
  BlockExecutionErrorCode,
  type BlockExecutionErrorType,
  ExecutionInterruptedCode,
  ExecutionInterruptedError,
  type ExecutionInterruptedErrorType,
  NativeContractErrorCode,
  type NativeContractErrorType,
  NativeContractUnavailableError,
  TransactionInvalidCode,
  TransactionInvalidError,
  type TransactionInvalidErrorType,
} from "./errors.ts";
export type {GasProfile} from "./gas/gasProfile.ts";
export {GAS_PROFILES, gasProfileAt} from "./gas/profile.ts";
export {intrinsicGas, MAX_INITCODE_SIZE} from "./intrinsic.ts";
export {BridgeStorageError, BridgeStorageErrorCode, type BridgeStorageErrorType} from "./native/bridge/errors.ts";
export {
  bridgeStorageReader,
  readOnlyBytesStorage,
  type StorageWordReader,
} from "./native/bridge/reader.ts";
export {type BridgeStateJson, bridgeStateJson, encodeStateForDebugging} from "./native/bridge/state.ts";
export {BridgeStorage} from "./native/bridge/storage.ts";
export {
  type RemascAncestry,
  type RemascBlockReader,
  type RemascHeader,
  type RemascSibling,
  remascAncestry,
} from "./native/remasc/ancestry.ts";
export {MINING_FEE_TOPIC, miningFeeLog} from "./native/remasc/logs.ts";
export {REMASC_STORAGE_KEYS, RemascStorage} from "./native/remasc/storage.ts";
export type {BlockExecutorOptions} from "./options.ts";
export {modexpGas} from "./precompiles/05-modexp.ts";
export {
  isPrecompiledAddress,
  NATIVE_CONTRACTS,
  nativeContractName,
  PRECOMPILED_ACCOUNT_ADDRESSES,
} from "./precompiles/addresses.ts";
export {orderedTrieProof, orderedTrieRoot, receiptProof, receiptsRoot, transactionsRoot} from "./roots.ts";
export {GAS_PRICE_CAP_MULTIPLIER, type GasPriceViolation, gasPriceViolation} from "./rules/gasPriceRule.ts";
export type {TraceScope} from "./tracing/traceBlock.ts";
export type {
  ExecutionTracer,
  FrameEnd,
  FrameKind,
  FrameStart,
  RemascPayment,
  SelfDestructEvent,
  TracedAccount,
  TracedTransaction,
  TraceStateView,
  TraceStep,
} from "./tracing/types.ts";
export type {
  AccountOverride,
  AssembledBlock,
  BlockExecutionResult,
  CallInput,
  CallResult,
  ChainHeaders,
  ExecuteBlockInput,
  ExecutionBlockContext,
  ExecutionChainView,
  ForkAncestry,
  StateOverride,
  TransactionOutcome,
} from "./types.ts";
