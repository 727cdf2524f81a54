/**
 * Typed failures of the p2p package. Callers branch on `err.code` (sync retries another peer on
 * TIMEOUT or BAD_RESPONSE; RPC maps INVALID_BAN_ADDRESS and INVALID_PEER_ADDRESS to invalid-parameter errors).
 */
import {NodeError} from "@xchain/utils";

export enum P2PErrorCode {
  /** A request got no (complete) answer within `requestTimeoutMs`, or a stream read stalled. */
  TIMEOUT = "P2P_TIMEOUT",
  /** An answer that does not fit the request (more items, other items, undecodable). */
  BAD_RESPONSE = "P2P_BAD_RESPONSE",
  /** A message that does not decode, breaks a cap, or is larger than `MAX_MESSAGE_BYTES`. */
  INVALID_MESSAGE = "P2P_INVALID_MESSAGE",
  /** The status handshake failed: another network, genesis or protocol version, or no status. */
  HANDSHAKE_FAILED = "P2P_HANDSHAKE_FAILED",
  /** `sco_banAddress`/`sco_unbanAddress` with something that is not an IP address or CIDR block. */
  INVALID_BAN_ADDRESS = "P2P_INVALID_BAN_ADDRESS",
  /** The identity key file exists but does not hold a libp2p private key. */
  INVALID_IDENTITY = "P2P_INVALID_IDENTITY",
  /** A request to a peer that is not connected (or has not completed the handshake). */
  UNKNOWN_PEER = "P2P_UNKNOWN_PEER",
  /** A request of ours that breaks the protocol's caps (a caller's bug, nothing is sent). */
  INVALID_REQUEST = "P2P_INVALID_REQUEST",
  /** The stream failed for another reason (reset, connection closed, protocol not supported). */
  REQUEST_FAILED = "P2P_REQUEST_FAILED",
  /** The host is not running (before `start` or after `stop`). */
  NOT_RUNNING = "P2P_NOT_RUNNING",
  /** `admin_addPeer`/`admin_removePeer` with something that is not a multiaddr ending in `/p2p/<peer id>`. */
  INVALID_PEER_ADDRESS = "P2P_INVALID_PEER_ADDRESS",
  /** `admin_addPeer` past the most peers it may add. */
  TOO_MANY_ADDED_PEERS = "P2P_TOO_MANY_ADDED_PEERS",
}

/** Each code with its metadata. */
export type P2PErrorType =
  | {code: P2PErrorCode.TIMEOUT; peer?: string; protocol?: string; timeoutMs: number}
  | {code: P2PErrorCode.BAD_RESPONSE; peer: string; protocol: string; reason: string}
  | {code: P2PErrorCode.INVALID_MESSAGE; reason: string; peer?: string}
  | {code: P2PErrorCode.HANDSHAKE_FAILED; reason: string; peer?: string}
  | {code: P2PErrorCode.INVALID_BAN_ADDRESS; address: string}
  | {code: P2PErrorCode.INVALID_IDENTITY; path: string; reason: string}
  | {code: P2PErrorCode.UNKNOWN_PEER; peer: string}
  | {code: P2PErrorCode.INVALID_REQUEST; reason: string}
  | {code: P2PErrorCode.REQUEST_FAILED; peer: string; protocol: string; reason: string}
  | {code: P2PErrorCode.NOT_RUNNING}
  | {code: P2PErrorCode.INVALID_PEER_ADDRESS; address: string; reason: string}
  | {code: P2PErrorCode.TOO_MANY_ADDED_PEERS; limit: number};

/** A failure of the p2p host, its protocols or its configuration. */
export class P2PError extends NodeError<P2PErrorType> {
  constructor(type: P2PErrorType) {
    super(type, describe(type));
  }
}

function describe(t: P2PErrorType): string {
  switch (t.code) {
    case P2PErrorCode.TIMEOUT:
      return `no answer${t.peer === undefined ? "" : ` from ${t.peer}`}${t.protocol === undefined ? "" : ` on ${t.protocol}`} within ${t.timeoutMs} ms`;
    case P2PErrorCode.BAD_RESPONSE:
      return `bad response from ${t.peer} on ${t.protocol}: ${t.reason}`;
    case P2PErrorCode.INVALID_MESSAGE:
      return `invalid message${t.peer === undefined ? "" : ` from ${t.peer}`}: ${t.reason}`;
    case P2PErrorCode.HANDSHAKE_FAILED:
      return `status handshake failed${t.peer === undefined ? "" : ` with ${t.peer}`}: ${t.reason}`;
    case P2PErrorCode.INVALID_BAN_ADDRESS:
      return `invalid banned address ${t.address}`;
    case P2PErrorCode.INVALID_IDENTITY:
      return `invalid node key in ${t.path}: ${t.reason} (delete the file to create a new identity)`;
    case P2PErrorCode.UNKNOWN_PEER:
      return `peer ${t.peer} is not connected`;
    case P2PErrorCode.INVALID_REQUEST:
      return `invalid request: ${t.reason}`;
    case P2PErrorCode.REQUEST_FAILED:
      return `request to ${t.peer} on ${t.protocol} failed: ${t.reason}`;
    case P2PErrorCode.NOT_RUNNING:
      return "the p2p host is not running";
    case P2PErrorCode.INVALID_PEER_ADDRESS:
      return `invalid peer address ${t.address}: ${t.reason}`;
    case P2PErrorCode.TOO_MANY_ADDED_PEERS:
      return `at most ${t.limit} peers may be added with admin_addPeer (admin_removePeer drops one)`;
  }
}
