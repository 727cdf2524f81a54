export {SyncError, SyncErrorCode, type SyncErrorType} from "./errors.ts";
export {checkSyncOptions, defaultSyncOptions} from "./options.ts";
export {isSyncCandidate, type SelectionContext, selectSyncPeer} from "./peerSelection.ts";
export {DEFAULT_RECENT_HASHES, DEFAULT_REPEATED_MESSAGE_LIMIT, Relay, SYNC_STATUS_INTERVAL_MS} from "./relay.ts";
export {PEER_COOLDOWN_MS, SYNC_REQUEST_TTL_MS, SyncManager} from "./syncManager.ts";
export {isInvalidTransaction} from "./txGossip.ts";
export type {SyncOptions, SyncProgress, SyncRunResult} from "./types.ts";
