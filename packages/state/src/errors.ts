import {NodeError} from "@xchain/utils";

export enum StateErrorCode {
  /** The trie node of the requested state root is not stored: that state was never persisted. */
  ROOT_MISSING = "STATE_ROOT_MISSING",
  /** A trie node or contract code that stored state references is not in the store: the database is damaged. */
  NODE_MISSING = "STATE_NODE_MISSING",
  /** `StateSession.commit()` was called while a state-manager checkpoint is still open. */
  CHECKPOINT_OPEN = "STATE_CHECKPOINT_OPEN",
  /** Something tried to write through a read-only view. */
  READ_ONLY = "STATE_READ_ONLY",
  /** An address, storage slot or root has the wrong length. */
  BAD_LENGTH = "STATE_BAD_LENGTH",
  /** A genesis allocation lists the same address twice. */
  DUPLICATE_GENESIS_ACCOUNT = "STATE_DUPLICATE_GENESIS_ACCOUNT",
  /** A state dump would pass its size limit (`miner.dumpStateMaxBytes`). */
  DUMP_TOO_LARGE = "STATE_DUMP_TOO_LARGE",
  /** A Merkle proof was asked of a forked state: its root commits to the local delta only (docs/architecture.md). */
  FORK_PROOF_UNAVAILABLE = "STATE_FORK_PROOF_UNAVAILABLE",
  /** A forked state's root names a base other than the one this node forks now (a root of an earlier fork). */
  FORK_BASE_MISMATCH = "STATE_FORK_BASE_MISMATCH",
  /**
   * The state after a block older than the retention window was asked for: a pruned node deleted it
   * (docs/operations.md §12). Names the oldest block whose state is still served.
   */
  PRUNED = "STATE_PRUNED",
}

export type StateErrorType =
  | {code: StateErrorCode.ROOT_MISSING; root: string}
  | {code: StateErrorCode.NODE_MISSING; key: string}
  | {code: StateErrorCode.CHECKPOINT_OPEN}
  | {code: StateErrorCode.READ_ONLY; operation: string}
  | {code: StateErrorCode.BAD_LENGTH; field: "address" | "slot" | "root"; expected: number; actual: number}
  | {code: StateErrorCode.DUPLICATE_GENESIS_ACCOUNT; address: string}
  | {code: StateErrorCode.DUMP_TOO_LARGE; maxBytes: number}
  | {code: StateErrorCode.FORK_PROOF_UNAVAILABLE; root: string}
  | {code: StateErrorCode.FORK_BASE_MISMATCH; root: string; expected: string; actual: string}
  | {code: StateErrorCode.PRUNED; block: number; oldestBlock: number};

/** A failure of the state package. */
export class StateError extends NodeError<StateErrorType> {}

/** Throws BAD_LENGTH unless `bytes` has exactly `expected` bytes. */
export function checkLength(bytes: Uint8Array, expected: number, field: "address" | "slot" | "root"): void {
  if (bytes.length !== expected) {
    throw new StateError(
      {code: StateErrorCode.BAD_LENGTH, field, expected, actual: bytes.length},
      `${field} must be ${expected} bytes, got ${bytes.length}`,
    );
  }
}
