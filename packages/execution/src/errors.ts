import {NodeError} from "@xchain/utils";

/** Why a transaction cannot be included in a block (rskj `TransactionExecutor.init` and the block tx rules). */
export enum TransactionInvalidCode {
  /** No sender can be recovered from the signature. */
  BAD_SIGNATURE = "TX_INVALID_BAD_SIGNATURE",
  /** gasPrice is below the block's minimumGasPrice (`TxsMinGasPriceRule`). */
  GAS_PRICE_BELOW_MINIMUM = "TX_INVALID_GAS_PRICE_BELOW_MINIMUM",
  /** gasPrice is above 100 × the block's minimumGasPrice (RSKIP-252 `BlockTxsMaxGasPriceRule`). */
  GAS_PRICE_ABOVE_CAP = "TX_INVALID_GAS_PRICE_ABOVE_CAP",
  /** A creation whose initcode exceeds 49,152 bytes (RSKIP-438). */
  INITCODE_TOO_LARGE = "TX_INVALID_INITCODE_TOO_LARGE",
  /** gasLimit is below the intrinsic gas (docs/protocol/gas.md §2). */
  INTRINSIC_GAS_TOO_LOW = "TX_INVALID_INTRINSIC_GAS_TOO_LOW",
  /** gasLimit plus the gas already used in the block exceeds the block gas limit. */
  BLOCK_GAS_LIMIT_EXCEEDED = "TX_INVALID_BLOCK_GAS_LIMIT_EXCEEDED",
  /** The nonce is not the sender's account nonce. */
  NONCE_MISMATCH = "TX_INVALID_NONCE_MISMATCH",
  /** The sender's balance does not cover gasLimit × gasPrice + value. */
  INSUFFICIENT_BALANCE = "TX_INVALID_INSUFFICIENT_BALANCE",
  /** A REMASC transaction where an ordinary one is expected (not last, or offered to block assembly). */
  UNEXPECTED_REMASC = "TX_INVALID_UNEXPECTED_REMASC",
}

/** Each code with its metadata. */
export type TransactionInvalidErrorType =
  | {code: TransactionInvalidCode.BAD_SIGNATURE; reason: string}
  | {code: TransactionInvalidCode.GAS_PRICE_BELOW_MINIMUM; gasPrice: bigint; minimumGasPrice: bigint}
  | {code: TransactionInvalidCode.GAS_PRICE_ABOVE_CAP; gasPrice: bigint; cap: bigint}
  | {code: TransactionInvalidCode.INITCODE_TOO_LARGE; size: number; max: number}
  | {code: TransactionInvalidCode.INTRINSIC_GAS_TOO_LOW; gasLimit: bigint; intrinsicGas: bigint}
  | {
      code: TransactionInvalidCode.BLOCK_GAS_LIMIT_EXCEEDED;
      gasLimit: bigint;
      blockGasUsed: bigint;
      blockGasLimit: bigint;
    }
  | {code: TransactionInvalidCode.NONCE_MISMATCH; expected: bigint; actual: bigint}
  | {code: TransactionInvalidCode.INSUFFICIENT_BALANCE; required: bigint; balance: bigint}
  | {code: TransactionInvalidCode.UNEXPECTED_REMASC};

/** A transaction that a block may not contain at this point (nothing was executed). */
export class TransactionInvalidError extends NodeError<TransactionInvalidErrorType> {}

/** Why a block's transactions cannot be executed. */
export enum BlockExecutionErrorCode {
  /** The transaction at `index` is invalid; `reason` is its `TransactionInvalidCode`. */
  INVALID_TRANSACTION = "BLOCK_EXEC_INVALID_TRANSACTION",
  /** The last transaction is not the REMASC transaction (or the block has none). */
  MISSING_REMASC = "BLOCK_EXEC_MISSING_REMASC",
  /** The REMASC address holds less than a payment it must make (a state no valid chain reaches). */
  REMASC_UNDERFUNDED = "BLOCK_EXEC_REMASC_UNDERFUNDED",
  /** A block REMASC reads (the processed block or one of the 7 above it) is missing from the chain view. */
  REMASC_ANCESTOR_MISSING = "BLOCK_EXEC_REMASC_ANCESTOR_MISSING",
}

/** Each code with its metadata. */
export type BlockExecutionErrorType =
  | {code: BlockExecutionErrorCode.INVALID_TRANSACTION; index: number; reason: TransactionInvalidCode}
  | {code: BlockExecutionErrorCode.MISSING_REMASC; transactionCount: number}
  | {code: BlockExecutionErrorCode.REMASC_UNDERFUNDED; balance: bigint; payment: bigint}
  | {code: BlockExecutionErrorCode.REMASC_ANCESTOR_MISSING; blockNumber: number};

/** A block whose transactions do not execute: the chain rejects it. */
export class BlockExecutionError extends NodeError<BlockExecutionErrorType> {
  /** The transaction error behind an INVALID_TRANSACTION. */
  readonly transactionError?: TransactionInvalidError;

  constructor(type: BlockExecutionErrorType, message?: string, transactionError?: TransactionInvalidError) {
    super(type, message);
    if (transactionError) this.transactionError = transactionError;
  }
}

/** Why a call stopped before its end. */
export enum ExecutionInterruptedCode {
  /** Its signal was aborted: the request timed out or its client left. */
  ABORTED = "EXEC_INTERRUPTED_ABORTED",
}

/** Each code with its metadata. */
export type ExecutionInterruptedErrorType = {code: ExecutionInterruptedCode.ABORTED};

/** A call stopped in the middle of its execution; nothing of it is kept. */
export class ExecutionInterruptedError extends NodeError<ExecutionInterruptedErrorType> {}

/** Why a message to an RSK native contract did not run. */
export enum NativeContractErrorCode {
  /**
   * On a forked chain (a chain view with `forkAncestry`): the message reached a native contract, which
   * xchain does not execute and a fork cannot ask its upstream to run (docs/forking.md §6).
   */
  UNAVAILABLE = "EXECUTION_NATIVE_CONTRACT_UNAVAILABLE",
}

/** Each code with its metadata: the contract's address (0x-prefixed hex) and rskj's name for it. */
export type NativeContractErrorType = {code: NativeContractErrorCode.UNAVAILABLE; address: string; name: string};

/**
 * A message (a call, an estimate, a transaction in block assembly, or an internal call of any of them)
 * reached a native contract that this node cannot execute: the whole message stops, nothing of it is kept.
 */
export class NativeContractUnavailableError extends NodeError<NativeContractErrorType> {}

/** Why a native contract's run failed (docs/protocol/native-contracts.md §2). */
export enum NativeContractFailureCode {
  /** The input names no method of the contract (unknown or disabled selector, fewer than 4 bytes, no default method). */
  UNKNOWN_METHOD = "EXECUTION_NATIVE_UNKNOWN_METHOD",
  /** The arguments do not decode (input too short, a value out of its type's range). */
  BAD_ARGUMENTS = "EXECUTION_NATIVE_BAD_ARGUMENTS",
  /** The method refused its arguments (rskj's NativeContractIllegalArgumentException and its kin). */
  ILLEGAL_ARGUMENT = "EXECUTION_NATIVE_ILLEGAL_ARGUMENT",
  /** The method may only run in eth_call (rskj's local-call-only methods) and ran in a transaction. */
  LOCAL_CALL_ONLY = "EXECUTION_NATIVE_LOCAL_CALL_ONLY",
  /** The method refused its caller or the way it was called (call type, sender, static context). */
  CALLER_REFUSED = "EXECUTION_NATIVE_CALLER_REFUSED",
}

/** Each code with its metadata: the contract's name and, when known, the method's. */
export type NativeContractFailureType = {code: NativeContractFailureCode; contract: string; method?: string};

/**
 * A native contract refused its input: rskj's VMException, an exceptional halt of the contract's frame
 * that charges only the contract's price, rolls back its frame and gives no return data (never a REVERT;
 * docs/protocol/native-contracts.md §2). The message is rskj's, for logs and traces.
 */
export class NativeContractFailure extends NodeError<NativeContractFailureType> {}
