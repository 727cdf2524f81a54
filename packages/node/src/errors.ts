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

/** Each reason an operator's database tool (`xchain db …`, docs/operations.md §5) stops. */
export enum DbToolErrorCode {
  /** A running node holds the data directory's database. */
  DATADIR_IN_USE = "DB_TOOL_DATADIR_IN_USE",
  /** The data directory holds no database. */
  NO_DATABASE = "DB_TOOL_NO_DATABASE",
  /** The database holds another network's chain than the one named. */
  OTHER_NETWORK = "DB_TOOL_OTHER_NETWORK",
  /** The database holds a forked chain (fork mode), which the tool does not handle. */
  FORKED_CHAIN = "DB_TOOL_FORKED_CHAIN",
  /** `--from`/`--to` outside the stored chain. */
  BAD_RANGE = "DB_TOOL_BAD_RANGE",
  /** The block file cannot be read, or is not a sequence of block encodings (garbage, truncated). */
  BAD_BLOCK_FILE = "DB_TOOL_BAD_BLOCK_FILE",
  /** A block of the file that the chain's import refused. */
  INVALID_BLOCK = "DB_TOOL_INVALID_BLOCK",
  /** A block of the file whose parent is neither stored nor earlier in the file. */
  MISSING_PARENT = "DB_TOOL_MISSING_PARENT",
  /** The file's block 0 is another chain's genesis. */
  OTHER_GENESIS = "DB_TOOL_OTHER_GENESIS",
  /**
   * A block of the file whose parent's state the pruned database no longer holds: the file's chain
   * forks from the database's below its retention window (docs/operations.md §12).
   */
  PARENT_STATE_PRUNED = "DB_TOOL_PARENT_STATE_PRUNED",
}

/** Each code with its metadata. */
export type DbToolErrorType =
  | {code: DbToolErrorCode.DATADIR_IN_USE; dataDir: string}
  | {code: DbToolErrorCode.NO_DATABASE; dataDir: string}
  | {code: DbToolErrorCode.OTHER_NETWORK; dataDir: string; expected: number; stored: number | undefined}
  | {code: DbToolErrorCode.FORKED_CHAIN; dataDir: string; fork: string}
  | {code: DbToolErrorCode.BAD_RANGE; from: number; to: number; head: number}
  | {code: DbToolErrorCode.BAD_BLOCK_FILE; file: string; offset: number; reason: string}
  | {code: DbToolErrorCode.INVALID_BLOCK; file: string; index: number; number?: number; hash?: string; reason: string}
  | {code: DbToolErrorCode.MISSING_PARENT; file: string; number: number; hash: string; parentHash: string}
  | {code: DbToolErrorCode.OTHER_GENESIS; file: string; genesis: string; expected: string}
  | {
      code: DbToolErrorCode.PARENT_STATE_PRUNED;
      file: string;
      index: number;
      number: number;
      hash: string;
      oldestBlock: number;
    };

/** A database tool that cannot go on; the message names the data directory, file or block, and what to do. */
export class DbToolError extends NodeError<DbToolErrorType> {}
