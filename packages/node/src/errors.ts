/** Why a node does not start. */
import {NodeError} from "@xchain/utils";

/** Each reason a node refuses to start. */
export enum NodeStartErrorCode {
  /** Another node (another process) holds the data directory's database. */
  DATADIR_IN_USE = "NODE_DATADIR_IN_USE",
  /** The data directory cannot be created or its database opened. */
  DATADIR_UNUSABLE = "NODE_DATADIR_UNUSABLE",
  /** Start-up was interrupted (SIGINT/SIGTERM) before the node was ready. */
  ABORTED = "NODE_START_ABORTED",
}

/** Each code with its metadata. */
export type NodeStartErrorType =
  | {code: NodeStartErrorCode.DATADIR_IN_USE; dataDir: string}
  | {code: NodeStartErrorCode.DATADIR_UNUSABLE; dataDir: string; reason: string}
  | {code: NodeStartErrorCode.ABORTED};

/** A node that cannot start; the message says what to do. */
export class NodeStartError extends NodeError<NodeStartErrorType> {}
