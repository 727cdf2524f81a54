/**
 * A transaction's call tree, built from a traced re-execution: each frame with how it started and
 * ended and its sub-frames and self-destructs in execution order. trace_* (parity-style flat
 * traces) and debug_trace*'s callTracer are both written from it.
 */
import type {
  ExecutionTracer,
  FrameEnd,
  FrameStart,
  RemascPayment,
  SelfDestructEvent,
  TracedTransaction,
  TransactionOutcome,
} from "@xchain/execution";

/** A SELFDESTRUCT inside a frame. */
export interface SelfDestructNode {
  type: "selfdestruct";
  event: SelfDestructEvent;
}

/** One frame (message) of the tree. */
export interface CallFrame {
  type: "frame";
  start: FrameStart;
  /** Set when the frame has ended (always, once its transaction has). */
  end: FrameEnd;
  /** Sub-frames and self-destructs, in execution order. */
  children: (CallFrame | SelfDestructNode)[];
}

/** One traced transaction. */
export interface TransactionCallTree {
  tx: TracedTransaction;
  outcome: TransactionOutcome;
  /** The transaction's own message; undefined for the REMASC transaction, which runs none. */
  root: CallFrame | undefined;
  /** What the REMASC transaction paid, if it is one (none for another transaction). */
  remasc: readonly RemascPayment[];
}

/** An `ExecutionTracer` that keeps each traced transaction's call tree. */
export class CallTreeTracer implements ExecutionTracer {
  readonly transactions: TransactionCallTree[] = [];
  private stack: CallFrame[] = [];
  private root: CallFrame | undefined;
  private payments: readonly RemascPayment[] = [];

  transactionStart(): void {
    this.stack = [];
    this.root = undefined;
    this.payments = [];
  }

  frameStart(start: FrameStart): void {
    const frame: CallFrame = {type: "frame", start, end: undefined as unknown as FrameEnd, children: []};
    const parent = this.stack.at(-1);
    if (parent) parent.children.push(frame);
    else this.root = frame;
    this.stack.push(frame);
  }

  frameEnd(end: FrameEnd): void {
    const frame = this.stack.pop();
    if (frame) frame.end = end;
  }

  selfDestruct(event: SelfDestructEvent): void {
    this.stack.at(-1)?.children.push({type: "selfdestruct", event});
  }

  remasc(_tx: TracedTransaction, payments: readonly RemascPayment[]): void {
    this.payments = payments;
  }

  transactionEnd(tx: TracedTransaction, outcome: TransactionOutcome): void {
    this.transactions.push({tx, outcome, root: this.root, remasc: this.payments});
  }
}
