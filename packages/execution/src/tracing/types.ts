/**
 * What a tracer hears while a block is re-executed (`BlockExecutor.trace`), in the execution
 * package's own terms: frames (messages) as they start and end, opcodes when asked for, self-
 * destructs, and the REMASC payout. RPC builds trace_* and debug_trace* answers from them.
 */
import type {Log, Transaction} from "@xchain/primitives";
import type {TransactionOutcome} from "../types.ts";

/** How a frame was entered: the opcode (or the transaction itself: `call` or `create`). */
export type FrameKind = "call" | "callcode" | "delegatecall" | "staticcall" | "create" | "create2";

/** A frame (a message) that starts. */
export interface FrameStart {
  kind: FrameKind;
  /** 0 for the transaction's own message. */
  depth: number;
  /** The account that makes the call: for a delegatecall the delegating contract, not its caller. */
  from: Uint8Array;
  /** The account called (for delegatecall and callcode the code's address); undefined for a create. */
  to: Uint8Array | undefined;
  value: bigint;
  /** Gas given to the frame (a transaction's: its gas limit minus the intrinsic gas). */
  gas: bigint;
  /** Calldata, or the init code of a create. */
  input: Uint8Array;
  /** A call to a precompiled contract. */
  precompile: boolean;
}

/** How a frame ended. */
export interface FrameEnd {
  /** Gas the frame consumed (refunds not deducted). */
  gasUsed: bigint;
  /** Returned data; the revert data on a revert. */
  output: Uint8Array;
  /** The EVM's error (`revert`, `out of gas`, `invalid opcode`, …); undefined on success. */
  error: string | undefined;
  /** A successful create's address. */
  createdAddress: Uint8Array | undefined;
  /** Whether EVM code ran (false for a transfer, a codeless account, a precompile). */
  ranCode: boolean;
  /** The logs of the frame and of its successful sub-frames. */
  logs: Log[];
}

/** One opcode about to run. */
export interface TraceStep {
  pc: number;
  /** The opcode's name (`PUSH1`, `SSTORE`, …). */
  op: string;
  opcode: number;
  /** Gas left before the opcode. */
  gas: bigint;
  /** What the opcode costs (for a call, the gas handed on included). */
  gasCost: bigint;
  /** 0 for the transaction's own message. */
  depth: number;
  /** Bottom to top. */
  stack: readonly bigint[];
  memory: Uint8Array;
  /** The account whose storage the code runs on. */
  address: Uint8Array;
}

/** A SELFDESTRUCT about to run. */
export interface SelfDestructEvent {
  address: Uint8Array;
  beneficiary: Uint8Array;
  balance: bigint;
}

/** One payment of the REMASC transaction (docs/protocol/native-contracts.md §11.3): from REMASC to a recipient. */
export interface RemascPayment {
  from: Uint8Array;
  to: Uint8Array;
  value: bigint;
}

/** The transaction a tracer is told about. */
export interface TracedTransaction {
  index: number;
  transaction: Transaction;
  /** The transaction's gas limit, and the intrinsic gas deducted before its code runs. */
  gasLimit: bigint;
  intrinsicGas: bigint;
}

/** An account as the state holds it during a traced block. */
export interface TracedAccount {
  nonce: bigint;
  balance: bigint;
  code: Uint8Array;
}

/** The block's state between its transactions, for the transaction hooks to read. */
export interface TraceStateView {
  /** Undefined when the account does not exist. */
  account(address: Uint8Array): Promise<TracedAccount | undefined>;
  /** The slot's value, without leading zeros (empty for zero). */
  storage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array>;
}

/**
 * Callbacks of a traced execution; each is optional, and `step` makes execution much slower. The
 * transaction hooks may return a promise, which the run waits for: they see the state as it is
 * before and after the transaction.
 */
export interface ExecutionTracer {
  transactionStart?(tx: TracedTransaction, state: TraceStateView): void | Promise<void>;
  frameStart?(frame: FrameStart): void;
  frameEnd?(frame: FrameEnd): void;
  step?(step: TraceStep): void;
  selfDestruct?(event: SelfDestructEvent): void;
  /** The REMASC transaction (the block's last) ran; its payments in order, zero ones included. */
  remasc?(tx: TracedTransaction, payments: readonly RemascPayment[]): void;
  transactionEnd?(tx: TracedTransaction, outcome: TransactionOutcome, state: TraceStateView): void | Promise<void>;
}
