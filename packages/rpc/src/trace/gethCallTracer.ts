/**
 * debug_trace*'s `callTracer` with geth's semantics (docs/protocol/debug-traces.md §4): the call
 * tree of each transaction as nested frames. `withLog` needs to know how many sub-calls preceded
 * each LOG of a frame (`position`), which only the opcode steps tell, so only then does the
 * tracer listen to steps.
 */
import type {
  ExecutionTracer,
  FrameEnd,
  FrameStart,
  SelfDestructEvent,
  TracedTransaction,
  TraceStep,
  TransactionOutcome,
} from "@xchain/execution";
import type {Log} from "@xchain/primitives";
import {toData, toQuantity} from "@xchain/utils";
import {decodePanic, decodeRevertReason} from "../format/revert.ts";
import {type CallFrame, CallTreeTracer, type SelfDestructNode, type TransactionCallTree} from "./callTree.ts";

/** A geth call frame, keys in the order written (docs/protocol/debug-traces.md §4.1). */
export interface GethCallFrame {
  type: string;
  from: string;
  to?: string;
  value?: string;
  gas: string;
  gasUsed: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: GethCallFrame[];
  logs?: GethCallLog[];
}

/** A log of a frame (`withLog`). */
export interface GethCallLog {
  address: string;
  topics: string[];
  data: string;
  /** How many sub-calls of the frame came before the log. */
  position: string;
}

/** What the callTracer is asked for. */
export interface CallTracerOptions {
  onlyTopCall: boolean;
  withLog: boolean;
}

/** The tracer to run, and the call trees it fills. */
export interface CallTracerRun {
  tracer: ExecutionTracer;
  tree: CallTreeTracer;
  /** The position of each own log of a frame, by the frame's end (`withLog` only). */
  positions: WeakMap<FrameEnd, number[]>;
}

/** A tracer for the callTracer; it listens to steps only with `withLog`. */
export function createCallTracer(options: CallTracerOptions, checkAbort: () => void): CallTracerRun {
  const tree = new CallTreeTracer();
  const positions = new WeakMap<FrameEnd, number[]>();
  // For each open frame: the sub-calls so far and the positions of its LOGs.
  const open: {calls: number; logs: number[]}[] = [];
  const tracer: ExecutionTracer = {
    transactionStart: () => {
      open.length = 0;
      tree.transactionStart();
    },
    frameStart: (start: FrameStart) => {
      checkAbort();
      const parent = open.at(-1);
      if (parent) parent.calls++;
      open.push({calls: 0, logs: []});
      tree.frameStart(start);
    },
    frameEnd: (end: FrameEnd) => {
      const frame = open.pop();
      if (frame) positions.set(end, frame.logs);
      tree.frameEnd(end);
    },
    selfDestruct: (event: SelfDestructEvent) => {
      const frame = open.at(-1);
      if (frame) frame.calls++;
      tree.selfDestruct(event);
    },
    remasc: (tx, payments) => tree.remasc(tx, payments),
    transactionEnd: (tx: TracedTransaction, outcome: TransactionOutcome) => tree.transactionEnd(tx, outcome),
  };
  if (options.withLog) {
    tracer.step = (step: TraceStep) => {
      if (step.opcode >= LOG0 && step.opcode <= LOG4) {
        const frame = open.at(-1);
        frame?.logs.push(frame.calls);
      }
    };
  }
  return {tracer, tree, positions};
}

const LOG0 = 0xa0;
const LOG4 = 0xa4;

/** A transaction's geth call frame (docs/protocol/debug-traces.md §4). */
export function gethCallFrame(
  traced: TransactionCallTree,
  options: CallTracerOptions,
  positions: WeakMap<FrameEnd, number[]>,
): GethCallFrame {
  const {tx, outcome, root} = traced;
  if (root === undefined) return remascFrame(traced, options);
  const frame = formatFrame(root, options, positions);
  // The transaction's own figures: its gas limit, and the gas its receipt charges (the keys keep their place).
  frame.gas = toQuantity(tx.gasLimit);
  frame.gasUsed = toQuantity(outcome.gasUsed);
  return frame;
}

function formatFrame(
  frame: CallFrame,
  options: CallTracerOptions,
  positions: WeakMap<FrameEnd, number[]>,
): GethCallFrame {
  const {start, end} = frame;
  const isCreate = start.kind === "create" || start.kind === "create2";
  const to = isCreate ? end.createdAddress : start.to;
  const json: GethCallFrame = {
    type: start.kind.toUpperCase(),
    from: toData(start.from),
    ...(to ? {to: toData(to)} : {}),
    // geth gives a STATICCALL no value.
    ...(start.kind === "staticcall" ? {} : {value: toQuantity(start.value)}),
    gas: toQuantity(start.gas),
    gasUsed: toQuantity(end.gasUsed),
    input: toData(start.input),
  };
  if (end.error === undefined) {
    if (end.output.length > 0) json.output = toData(end.output);
  } else if (end.error === "revert") {
    json.error = "execution reverted";
    if (end.output.length > 0) json.output = toData(end.output);
    // geth's abi.UnpackRevert: an Error(string)'s message or a Panic(uint256)'s meaning; a custom error has none.
    const reason = decodeRevertReason(end.output) ?? decodePanic(end.output);
    if (reason !== undefined) json.revertReason = reason;
  } else {
    json.error = gethError(end.error);
  }
  if (!options.onlyTopCall && frame.children.length > 0) {
    json.calls = frame.children.map((child) =>
      child.type === "frame" ? formatFrame(child, options, positions) : selfDestructFrame(child),
    );
  }
  if (options.withLog && end.error === undefined) {
    const logs = ownLogs(frame, positions.get(end) ?? []);
    if (logs.length > 0) json.logs = logs;
  }
  return json;
}

/** The frame's own logs: its logs (which include its successful sub-frames') without the sub-frames'. */
function ownLogs(frame: CallFrame, positions: readonly number[]): GethCallLog[] {
  const all = frame.end.logs;
  const own: GethCallLog[] = [];
  let next = 0;
  let mine = 0;
  frame.children.forEach((child, index) => {
    while (mine < positions.length && positions[mine] === index) own.push(callLog(all[next++], positions[mine++]));
    if (child.type === "frame" && child.end.error === undefined) next += child.end.logs.length;
  });
  while (mine < positions.length) own.push(callLog(all[next++], positions[mine++]));
  return own;
}

function callLog(log: Log | undefined, position: number | undefined): GethCallLog {
  const entry = log as Log;
  return {
    address: toData(entry.address),
    topics: entry.topics.map(toData),
    data: toData(entry.data),
    position: toQuantity(position ?? 0),
  };
}

function selfDestructFrame({event}: SelfDestructNode): GethCallFrame {
  return {
    type: "SELFDESTRUCT",
    from: toData(event.address),
    to: toData(event.beneficiary),
    value: toQuantity(event.balance),
    gas: "0x0",
    gasUsed: "0x0",
    input: "0x",
  };
}

/**
 * The REMASC transaction runs no message: a CALL to the REMASC contract with one sub-call per payment,
 * each payment's `mining_fee` log after its sub-call (docs/protocol/native-contracts.md §11.3).
 */
function remascFrame({tx, outcome, remasc}: TransactionCallTree, options: CallTracerOptions): GethCallFrame {
  const {transaction} = tx;
  const frame: GethCallFrame = {
    type: "CALL",
    from: toData(transaction.sender()),
    to: toData(transaction.to ?? new Uint8Array(20)),
    value: toQuantity(transaction.value),
    gas: toQuantity(tx.gasLimit),
    gasUsed: toQuantity(outcome.gasUsed),
    input: toData(transaction.data),
  };
  if (remasc.length > 0 && !options.onlyTopCall) {
    frame.calls = remasc.map((payment) => ({
      type: "CALL",
      from: toData(payment.from),
      to: toData(payment.to),
      value: toQuantity(payment.value),
      gas: "0x0",
      gasUsed: "0x0",
      input: "0x",
    }));
  }
  if (options.withLog && outcome.logs.length > 0) frame.logs = outcome.logs.map((log, i) => callLog(log, i + 1));
  return frame;
}

/** ethereumjs's error names as geth writes them (docs/protocol/debug-traces.md §4.2). */
const GETH_ERRORS: Record<string, string> = {
  "static state change": "write protection",
  "invalid JUMP": "invalid jump destination",
  "stack overflow": "stack limit reached 1024 (1023)",
  "value overflow": "gas uint64 overflow",
  "code store out of gas": "contract creation code storage out of gas",
  "code size to deposit exceeds maximum code size": "max code size exceeded",
};

/** An ethereumjs error name as geth writes it (docs/protocol/debug-traces.md §4.2). */
export function gethError(error: string): string {
  return GETH_ERRORS[error] ?? error;
}
