/**
 * Typed errors of the sync package: why a sync run from a peer ended early, and invalid options.
 * The manager logs them, scores the peer when it is at fault and goes on with other peers.
 */
import {NodeError} from "@xchain/utils";

/** Why a sync run ended before catching up; values are prefixed `SYNC_`. */
export enum SyncErrorCode {
  /** An option is out of range (e.g. more headers per request than the p2p cap). */
  INVALID_OPTIONS = "SYNC_INVALID_OPTIONS",
  /** The peer is not connected any more, and no other peer can serve what is missing. */
  PEER_GONE = "SYNC_PEER_GONE",
  /** A request to the peer failed (timeout, bad response, connection lost); the network scored it. */
  REQUEST_FAILED = "SYNC_REQUEST_FAILED",
  /** The peer shares no block with us, not even the genesis block. */
  NO_COMMON_ANCESTOR = "SYNC_NO_COMMON_ANCESTOR",
  /** Headers at other numbers than asked. */
  UNEXPECTED_HEADERS = "SYNC_UNEXPECTED_HEADERS",
  /** A header breaks linkage or a consensus rule; `cause` is the rule's code. */
  INVALID_HEADER = "SYNC_INVALID_HEADER",
  /** The chain refused a block whose body matches its header; `cause` is the rule's code. */
  INVALID_BLOCK = "SYNC_INVALID_BLOCK",
  /** No connected peer served a body that the chain accepts for this block. */
  BODY_UNAVAILABLE = "SYNC_BODY_UNAVAILABLE",
  /** The peer's chain moved under us (its next headers do not extend the ones we have): a reorg, start again. */
  PEER_REORGED = "SYNC_PEER_REORGED",
  /** The chain answered something sync cannot continue from (e.g. NO_PARENT for a block whose parent it imported). */
  UNEXPECTED_IMPORT = "SYNC_UNEXPECTED_IMPORT",
  /**
   * The peer's chain forks from ours below the oldest state this node keeps (a pruned node,
   * docs/operations.md §12): its blocks cannot be executed here. Not the peer's fault (its first
   * headers of the branch passed the checks): the branch is not followed, the head stays, and the
   * sync goes on with other peers.
   */
  FORK_BELOW_RETENTION = "SYNC_FORK_BELOW_RETENTION",
  /** `stop()` was called. */
  STOPPED = "SYNC_STOPPED",
}

/** Each code with its metadata. */
export type SyncErrorType =
  | {code: SyncErrorCode.INVALID_OPTIONS; option: string; value: number; min: number; max: number}
  | {code: SyncErrorCode.PEER_GONE; peer: string}
  | {code: SyncErrorCode.REQUEST_FAILED; peer: string; request: string; detail: string}
  | {code: SyncErrorCode.NO_COMMON_ANCESTOR; peer: string}
  | {code: SyncErrorCode.UNEXPECTED_HEADERS; peer: string; expected: number; actual: number}
  | {code: SyncErrorCode.INVALID_HEADER; peer: string; number: number; cause: string; detail: string}
  | {code: SyncErrorCode.INVALID_BLOCK; peer: string; number: number; cause: string; detail: string}
  | {code: SyncErrorCode.BODY_UNAVAILABLE; number: number; attempts: number}
  | {code: SyncErrorCode.PEER_REORGED; peer: string; number: number}
  | {code: SyncErrorCode.UNEXPECTED_IMPORT; number: number; kind: string}
  | {code: SyncErrorCode.FORK_BELOW_RETENTION; peer: string; number: number; oldestBlock: number}
  | {code: SyncErrorCode.STOPPED};

/** A sync run that ended early, or invalid options. */
export class SyncError extends NodeError<SyncErrorType> {
  constructor(type: SyncErrorType) {
    super(type, describe(type));
  }
}

function describe(t: SyncErrorType): string {
  switch (t.code) {
    case SyncErrorCode.INVALID_OPTIONS:
      return `sync option ${t.option} = ${t.value} outside [${t.min}, ${t.max}]`;
    case SyncErrorCode.PEER_GONE:
      return `peer ${t.peer} disconnected`;
    case SyncErrorCode.REQUEST_FAILED:
      return `${t.request} from ${t.peer} failed: ${t.detail}`;
    case SyncErrorCode.NO_COMMON_ANCESTOR:
      return `peer ${t.peer} shares no block with us`;
    case SyncErrorCode.UNEXPECTED_HEADERS:
      return `peer ${t.peer} answered header ${t.actual} where ${t.expected} was asked`;
    case SyncErrorCode.INVALID_HEADER:
      return `peer ${t.peer}: header ${t.number} is invalid (${t.cause}: ${t.detail})`;
    case SyncErrorCode.INVALID_BLOCK:
      return `peer ${t.peer}: block ${t.number} is invalid (${t.cause}: ${t.detail})`;
    case SyncErrorCode.BODY_UNAVAILABLE:
      return `no peer served a valid body for block ${t.number} (${t.attempts} attempts)`;
    case SyncErrorCode.PEER_REORGED:
      return `peer ${t.peer} switched branches below block ${t.number}`;
    case SyncErrorCode.UNEXPECTED_IMPORT:
      return `import of block ${t.number} answered ${t.kind}`;
    case SyncErrorCode.FORK_BELOW_RETENTION:
      return (
        `peer ${t.peer}'s chain forks from ours below the states this node keeps: its block ${t.number} ` +
        `executes on the state after block ${t.number - 1}, which was pruned (the oldest state served is block ` +
        `${t.oldestBlock}); a pruned node follows no reorganization deeper than state.retainBlocks ` +
        "(docs/operations.md §12): the branch is not followed"
      );
    case SyncErrorCode.STOPPED:
      return "sync stopped";
  }
}

/** The message of any thrown value, for error metadata. */
export function errorDetail(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The code of a typed error (any `NodeError`), or the error's name. */
export function errorCode(error: unknown): string {
  if (error instanceof NodeError) return String(error.code);
  return error instanceof Error ? error.name : "unknown";
}
