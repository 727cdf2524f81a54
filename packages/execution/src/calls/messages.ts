/**
 * The messages between the main thread and its call workers (structured clone: bytes and bigints
 * cross as they are). A call carries its `CallInput` without the chain view and the signal, which
 * cannot cross: the worker reads BLOCKHASH answers from the store by the call's `parentHash`
 * (storedAncestors.ts), and the main thread posts an abort. Errors cross as their class name, type
 * and message, and are rebuilt as the same typed errors, so that the RPC layer maps them as it maps
 * in-process ones.
 */

import type {NetworkParams} from "@xchain/chainspec";
import {DatabaseError} from "@xchain/db";
import {StateError, type StateOptions, type StateReadCounts} from "@xchain/state";
import {type CacheUsage, NodeError} from "@xchain/utils";
import {ExecutionInterruptedError, TransactionInvalidError} from "../errors.ts";
import type {CallInput, CallResult} from "../types.ts";
import {CallWorkerError} from "./errors.ts";
import type {StoredAncestors} from "./storedAncestors.ts";

/** All a worker is given (`workerData`): what it opens and the rules it runs by. */
export interface CallWorkerData {
  /** The database directory, as the main thread's handle (opened with `threads: "share"`) was given it. */
  dbPath: string;
  /** The network's parameters (`Chainspec.params`), from which the worker builds its `Chainspec`. */
  chainParams: NetworkParams;
  /** The budgets of the worker's own state caches. */
  state: StateOptions;
}

/**
 * A call's input as it crosses, without the chain view and the signal: a tuple, since the
 * structured clone of an object writes, and its reading looks up, every property name.
 */
export type PortableCallInput = readonly [
  block: readonly [number, number, Uint8Array, bigint, bigint, bigint],
  stateRoot: Uint8Array,
  from: Uint8Array,
  to: Uint8Array | undefined,
  value: bigint | undefined,
  data: Uint8Array | undefined,
  gasLimit: bigint,
  gasPrice: bigint | undefined,
  overrides: CallInput["overrides"],
  intrinsicGas: bigint | undefined,
  parentHash: Uint8Array,
];

/** `input` as it crosses; only a call that carries its `parentHash` goes to a worker. */
export function toPortableInput(input: CallInput, parentHash: Uint8Array): PortableCallInput {
  const {number, timestamp, coinbase, difficulty, gasLimit, minimumGasPrice} = input.block;
  return [
    [number, timestamp, coinbase, difficulty, gasLimit, minimumGasPrice],
    input.stateRoot,
    input.from,
    input.to,
    input.value,
    input.data,
    input.gasLimit,
    input.gasPrice,
    input.overrides,
    input.intrinsicGas,
    parentHash,
  ];
}

/** The input a worker runs: the crossed one with its chain view over the worker's `ancestors`, and its stop flag. */
export function fromPortableInput(
  portable: PortableCallInput,
  ancestors: Pick<StoredAncestors, "view">,
  signal: CallInput["signal"],
): CallInput {
  const [[number, timestamp, coinbase, difficulty, blockGasLimit, minimumGasPrice], stateRoot, from, to, value] =
    portable;
  const [, , , , , data, gasLimit, gasPrice, overrides, intrinsicGas, parentHash] = portable;
  const block = {number, timestamp, coinbase, difficulty, gasLimit: blockGasLimit, minimumGasPrice};
  const chain = ancestors.view(number, parentHash);
  return {
    block,
    chain,
    stateRoot,
    from,
    to,
    value,
    data,
    gasLimit,
    gasPrice,
    intrinsicGas,
    parentHash,
    signal,
    overrides,
  };
}

/** A call's result as it crosses: a tuple, as the input. */
export type PortableCallResult = readonly [
  status: boolean,
  gasUsed: bigint,
  gasRefund: bigint,
  returnValue: Uint8Array,
  logs: CallResult["logs"],
  contractAddress: Uint8Array | undefined,
  revertData: Uint8Array | undefined,
  error: string | undefined,
];

/** `result` as it crosses. */
export function toPortableResult(result: CallResult): PortableCallResult {
  const {status, gasUsed, gasRefund, returnValue, logs, contractAddress, revertData, error} = result;
  return [status, gasUsed, gasRefund, returnValue, logs, contractAddress, revertData, error];
}

/** The result a worker reported; the optional fields only where set, as the executor gives them. */
export function fromPortableResult(portable: PortableCallResult): CallResult {
  const [status, gasUsed, gasRefund, returnValue, logs, contractAddress, revertData, error] = portable;
  const result: CallResult = {status, gasUsed, gasRefund, returnValue, logs};
  if (contractAddress !== undefined) result.contractAddress = contractAddress;
  if (revertData !== undefined) result.revertData = revertData;
  if (error !== undefined) result.error = error;
  return result;
}

/** Main thread → worker. */
export type ToWorker =
  | {type: "call"; id: number; input: PortableCallInput}
  | {type: "abort"; id: number}
  /** Close the database handle and exit. */
  | {type: "close"};

/** An error as it crosses. */
export interface PortableError {
  name: string;
  message: string;
  type?: {code: string};
}

/** Worker → main thread. */
export type FromWorker =
  /** The worker's database is open. */
  | {type: "ready"}
  | {type: "result"; id: number; result: PortableCallResult}
  | {type: "error"; id: number; error: PortableError}
  /**
   * Its caches against their budgets, its V8 heap and how its state reads were served (flat state or
   * trie, totals since it started), sent every `MEMORY_REPORT_MS`.
   */
  | {type: "memory"; caches: CacheUsage[]; heapUsedBytes: number; reads: StateReadCounts};

/** How often a worker reports its memory (the metrics read the last report). */
export const MEMORY_REPORT_MS = 5_000;

/** The typed errors a call may end with, rebuilt by name. */
const TYPED_ERRORS: Record<string, new (type: never, message?: string) => NodeError<{code: string}>> = {
  ExecutionInterruptedError,
  TransactionInvalidError,
  StateError,
  // NEEDS_MAIN_THREAD: the call service runs the call again in-process.
  CallWorkerError,
  // Damage a worker's reads meet is answered as the main thread's would be (-32000, docs/operations.md §6).
  DatabaseError,
};

/** `error` as it crosses to the main thread. */
export function toPortableError(error: unknown): PortableError {
  if (error instanceof NodeError) return {name: error.name, message: error.message, type: error.type};
  if (error instanceof Error) return {name: error.name, message: error.message};
  return {name: "Error", message: String(error)};
}

/** The error a worker reported, rebuilt: the same typed error where it is one of the call's, else an `Error`. */
export function fromPortableError(error: PortableError): Error {
  const TypedError = TYPED_ERRORS[error.name];
  if (TypedError && error.type) return new TypedError(error.type as never, error.message);
  return new Error(`call worker: ${error.message}`);
}
