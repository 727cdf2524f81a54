/** Why a call sent to a call worker failed other than by its own execution. */
import {NodeError} from "@xchain/utils";

/** Each reason. */
export enum CallWorkerErrorCode {
  /** The worker running the call exited (crashed, or could not open the database); the pool replaces it. */
  WORKER_EXITED = "CALL_WORKER_EXITED",
  /**
   * The call reached something a worker cannot read (the BlockHeader native contract's stored headers): the
   * call service runs it again on the main thread, so no caller ever sees this code.
   */
  NEEDS_MAIN_THREAD = "CALL_WORKER_NEEDS_MAIN_THREAD",
}

/** Each code with its metadata. */
export type CallWorkerErrorType = {
  code: CallWorkerErrorCode.WORKER_EXITED | CallWorkerErrorCode.NEEDS_MAIN_THREAD;
  reason: string;
};

/** A call lost with its worker: a fault of the node, answered -32603 and logged. */
export class CallWorkerError extends NodeError<CallWorkerErrorType> {}
