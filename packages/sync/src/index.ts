export {SyncError, SyncErrorCode, type SyncErrorType} from "./errors.ts";
export {
  checkSyncOptions,
  DEFAULT_RECENT_HASHES,
  DEFAULT_REPEATED_MESSAGE_LIMIT,
  defaultRelayOptions,
  defaultSyncOptions,
  type RelayOptions,
  type SyncOptions,
} from "./options.ts";
export {isSyncCandidate, type SelectionContext, selectSyncPeer} from "./peerSelection.ts";
export {Relay, SYNC_STATUS_INTERVAL_MS} from "./relay.ts";
export {PEER_COOLDOWN_MS, SYNC_REQUEST_TTL_MS, SyncManager} from "./syncManager.ts";
export {isInvalidTransaction} from "./txGossip.ts";
export type {
  RelayModules,
  SyncEvents,
  SyncModules,
  SyncProgress,
  SyncRunResult,
  SyncSenderRecovery,
} from "./types.ts";
