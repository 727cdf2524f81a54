export {Chain, type ChainModules} from "./chain.ts";
export {
  BlockError,
  BlockErrorCode,
  type BlockErrorType,
  ChainError,
  ChainErrorCode,
  type ChainErrorType,
} from "./errors.ts";
export type {BlockExecutorApi} from "./import/blockImporter.ts";
export {type ChainOptions, defaultChainOptions} from "./options.ts";
export {
  type ChainEvents,
  type ChainHead,
  type ChainReader,
  type ImportResult,
  ImportResultKind,
  type LogQueryControl,
  type LogWithContext,
  type NewHeadEvent,
} from "./types.ts";
