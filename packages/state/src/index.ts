export {StateError, StateErrorCode, type StateErrorType} from "./errors.ts";
export {storedFlatState} from "./flat/flatMeta.ts";
export {type FlatChange, type FlatStateStatus, FlatStateWriter, type FlatStep} from "./flat/flatState.ts";
export type {StateReadCounts} from "./flat/flatView.ts";
export type {FlatVerification} from "./flat/verifyFlat.ts";
export type {ForkHeader} from "./fork/answers.ts";
export {
  ACCOUNT_TOMBSTONE,
  type DeltaAccount,
  FORK_MARKER_KEY,
  SLOT_TOMBSTONE,
  WIPED_KEY,
} from "./fork/deltaEncoding.ts";
export type {UpstreamDialect} from "./fork/dialect.ts";
export {ForkError, ForkErrorCode, type ForkErrorType} from "./fork/errors.ts";
export {ForkCache, type UpstreamRecord} from "./fork/forkCache.ts";
export {baseIdOf, forkStateRoot, type InitialForkAccount} from "./fork/forkMarker.ts";
export {ForkStateSession} from "./fork/forkSession.ts";
export {ForkSource, type ForkSourceModules} from "./fork/forkSource.ts";
export {ForkStateReader} from "./fork/forkStateReader.ts";
export {FORWARDED_METHODS, type ForwardRule} from "./fork/forwarding.ts";
export type {ForkAccount} from "./fork/proofs.ts";
export {readerBase} from "./fork/readerBase.ts";
export {forkSourceBase} from "./fork/sourceBase.ts";
export {type BaseAccount, type ForkBaseHolder, forkBaseId, type StateBase} from "./fork/stateBase.ts";
export {UpstreamClient} from "./fork/upstreamClient.ts";
export {buildGenesisState} from "./genesis.ts";
export type {NodeCacheStats} from "./nodeCache.ts";
export {
  defaultForkSourceOptions,
  defaultStateOptions,
  type ForkSourceOptions,
  type ForkVerifyMode,
  type StateOptions,
  type UpstreamClientOptions,
} from "./options.ts";
export {OverlayStateManager} from "./overlayStateManager.ts";
export {type MarkControl, markState, markStates} from "./prune/markState.ts";
export {keyAfter, markStateWrites, StateMark} from "./prune/marks.ts";
export {type CollectionStep, clearMarksStep, type SweepScan, sweepDeletes, sweepScan} from "./prune/sweep.ts";
export {StateDatabase, type StateModules} from "./stateDatabase.ts";
export type {DumpedAccount, StateDump, StateDumpLimits} from "./stateDump.ts";
export {type StateEditor, stateEditor} from "./stateEditor.ts";
export {
  type BytesStorage,
  bytesStorage,
  MAX_STORED_VALUE_BYTES,
  NativeStorageError,
  NativeStorageErrorCode,
  type NativeStorageErrorType,
  storesByteStrings,
  type WordStorage,
} from "./storageBytes.ts";
export {EMPTY_TRIE_ROOT} from "./trie.ts";
export type {AccountState, GenesisAccount, StateCommit, StateReader, StateSession, StateSource} from "./types.ts";
export {nodeReferences, type StateDamage, type StateVerification, TrieKind, verifyState} from "./verifyState.ts";
