/** The Bridge's typed failures (docs/protocol/native-contracts.md §10). Each fails the call that hit it (§2). */
import {NodeError} from "@xchain/utils";

export enum BridgeStorageErrorCode {
  /** A stored value that does not decode as rskj's format for its key (a dev control's raw write). */
  UNDECODABLE = "BRIDGE_STORAGE_UNDECODABLE",
}

export type BridgeStorageErrorType = {code: BridgeStorageErrorCode.UNDECODABLE; key: string; value: string};

/** The Bridge's storage holds a value it cannot read. */
export class BridgeStorageError extends NodeError<BridgeStorageErrorType> {}
