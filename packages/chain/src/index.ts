export {Chain, type ChainModules, type ForkChainModules} from "./chain.ts";
export {
  BlockError,
  BlockErrorCode,
  type BlockErrorType,
  ChainError,
  ChainErrorCode,
  type ChainErrorType,
} from "./errors.ts";
export {
  buildForkAnchor,
  describeForkAnchor,
  type ForkAnchor,
  type ForkAnchorId,
  type ForkAnchorInput,
  type ForkRootSource,
} from "./fork/anchor.ts";
export {chainAncestry} from "./fork/chainAncestry.ts";
export {
  BlockJsonError,
  BlockJsonErrorCode,
  type BlockJsonErrorType,
  headerFromBlockJson,
} from "./fork/headerFromBlockJson.ts";
export {readForkAnchor, readForkAnchorId, type StoredForkAnchor} from "./fork/readForkAnchor.ts";
export {
  anchorHeader,
  buildUpstreamAnchor,
  type UpstreamAnchorInput,
  type UpstreamFamily,
  upstreamAncestry,
  upstreamFamily,
} from "./fork/upstreamAnchor.ts";
export type {BlockExecutorApi} from "./import/executeOnParent.ts";
export {
  type ChainOptions,
  DEFAULT_RETAIN_BLOCKS,
  defaultChainOptions,
  MIN_RETAIN_BLOCKS,
  type StateMode,
  type StateRetentionOptions,
} from "./options.ts";
export {CollectionPhase, type RetentionRecord, readRetentionRecord} from "./prune/retentionRecord.ts";
export {type CollectorStats, DEFAULT_COLLECTOR_STEPS} from "./prune/stateCollector.ts";
export type {StatePin} from "./prune/stateRetention.ts";
export {decodeForImport, type RecoverAheadOptions, recoverAhead, transactionsOfBlock} from "./senders/recoverAhead.ts";
export {SenderRecovery, type SenderRecoveryModules} from "./senders/senderRecovery.ts";
export {SCHEMA_VERSION} from "./store/metaStore.ts";
export {canonicalBlocks, type EncodedBlock} from "./tools/canonicalBlocks.ts";
export {type BlockId, type ChainStoreSummary, summarizeChainStore} from "./tools/storeSummary.ts";
export {
  type ChainEvents,
  type ChainFork,
  type ChainHead,
  type ChainReader,
  type HeadStateEditor,
  type ImportEvent,
  type ImportResult,
  ImportResultKind,
  type LocalExecution,
  type LogQueryControl,
  type LogWithContext,
  type NewHeadEvent,
  type StateEditedEvent,
} from "./types.ts";
export {type RebuildModules, rebuildState, type StateRebuild} from "./verify/rebuildState.ts";
export {type GenesisRestore, restoreGenesis} from "./verify/restoreGenesis.ts";
export {type Rewind, rewindChain} from "./verify/rewindChain.ts";
export {
  type ChainDamage,
  type ChainVerification,
  type ChainVerifyModules,
  verifyChain,
  verifyStateAt,
} from "./verify/verifyChain.ts";
