/** Why a node does not start. */
import {NodeError} from "@xchain/utils";

/** Each reason a node refuses to start. */
export enum NodeStartErrorCode {
  /** Another node (another process) holds the data directory's database. */
  DATADIR_IN_USE = "NODE_DATADIR_IN_USE",
  /** The data directory cannot be created or its database opened. */
  DATADIR_UNUSABLE = "NODE_DATADIR_UNUSABLE",
  /** The data directory recorded a database (database.json) that is no longer there. */
  DATABASE_MISSING = "NODE_DATABASE_MISSING",
  /** The database is damaged (LevelDB found damage, its CURRENT file is missing, or its head is not stored). */
  DATABASE_DAMAGED = "NODE_DATABASE_DAMAGED",
  /** The database no longer holds the head the data directory recorded: it lost blocks. */
  DATABASE_REWOUND = "NODE_DATABASE_REWOUND",
  /** The database's device is full. */
  DISK_FULL = "NODE_DISK_FULL",
  /** Start-up was interrupted (SIGINT/SIGTERM) before the node was ready. */
  ABORTED = "NODE_START_ABORTED",
  /** A fork of an upstream whose chain id no transaction of xchain can carry (above 109), without `fork.chainId`. */
  FORK_CHAIN_ID_UNSIGNABLE = "NODE_FORK_CHAIN_ID_UNSIGNABLE",
}

/** Each code with its metadata. */
export type NodeStartErrorType =
  | {code: NodeStartErrorCode.DATADIR_IN_USE; dataDir: string}
  | {code: NodeStartErrorCode.DATADIR_UNUSABLE; dataDir: string; reason: string}
  | {code: NodeStartErrorCode.DATABASE_MISSING; dataDir: string}
  | {code: NodeStartErrorCode.DATABASE_DAMAGED; dataDir: string; reason: string}
  | {code: NodeStartErrorCode.DATABASE_REWOUND; dataDir: string; recorded: number; head: number}
  | {code: NodeStartErrorCode.DISK_FULL; dataDir: string; reason: string}
  | {code: NodeStartErrorCode.ABORTED}
  | {code: NodeStartErrorCode.FORK_CHAIN_ID_UNSIGNABLE; upstreamChainId: string};

/** A node that cannot start; the message says what to do. */
export class NodeStartError extends NodeError<NodeStartErrorType> {}
