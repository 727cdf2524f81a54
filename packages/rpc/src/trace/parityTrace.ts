/**
 * The flat, parity-style trace list of `trace_*` (docs/protocol/traces.md §2, §3) written from a
 * transaction's call tree: one entry per frame, depth-first in pre-order, with rskj's key order and
 * JSON-number fields, and xchain's decisions (docs/protocol/traces.md §6).
 */
import {REMASC_ADDRESS, REMASC_SENDER} from "@xchain/primitives";
import {toData, toQuantity} from "@xchain/utils";
import type {CallFrame, SelfDestructNode, TransactionCallTree} from "./callTree.ts";

/** `action` of a `call` entry (docs/protocol/traces.md §2.2). */
export interface CallAction {
  callType: "call" | "callcode" | "delegatecall" | "staticcall";
  from: string;
  to: string;
  gas: string;
  input: string;
  value: string;
}

/** `action` of a `create` entry; `creationMethod` only on internal creates. */
export interface CreateAction {
  from: string;
  gas: string;
  init: string;
  value: string;
  creationMethod?: "create" | "create2";
}

/** `action` of a `suicide` entry. */
export interface SuicideAction {
  address: string;
  refundAddress: string;
  balance: string;
}

/** One entry of the flat list, keys in wire order (docs/protocol/traces.md §2.1). */
export interface ParityTrace {
  action: CallAction | CreateAction | SuicideAction;
  blockHash: string;
  blockNumber: number;
  transactionHash: string;
  transactionPosition: number;
  type: "call" | "create" | "suicide";
  subtraces: number;
  traceAddress: number[];
  result: {gasUsed: string; output: string} | {gasUsed: string; code: string; address: string} | null;
  error?: string;
}

/** The block a list belongs to. */
export interface TracedBlock {
  hash: Uint8Array;
  number: number;
}

/**
 * The EVM's error strings mapped to the strings traces show (docs/protocol/traces.md §5); any other
 * becomes "Internal error".
 */
const ERROR_STRINGS: ReadonlyMap<string, string> = new Map([
  ["revert", "Reverted"],
  ["out of gas", "Out of gas"],
  ["code store out of gas", "Out of gas"],
  ["refund exhausted", "Out of gas"],
  ["code size to deposit exceeds maximum code size", "Out of gas"],
  ["initcode exceeds max initcode size", "Out of gas"],
  ["create collision", "Out of gas"],
  ["invalid opcode", "Bad instruction"],
  ["invalid bytecode deployed", "Bad instruction"],
  ["invalid JUMP", "Bad jump destination"],
  ["stack underflow", "Stack underflow"],
  ["stack overflow", "Out of stack"],
  ["static state change", "Mutable Call In Static Context"],
  ["value out of range", "Out of bounds"],
]);

/** The trace error string of an EVM error (docs/protocol/traces.md §5). */
export function traceError(evmError: string): string {
  return ERROR_STRINGS.get(evmError) ?? "Internal error";
}

const ZERO = "0x0";
const EMPTY = "0x";

/** One entry before the block and transaction fields are added. */
interface Entry {
  type: ParityTrace["type"];
  action: ParityTrace["action"];
  result: ParityTrace["result"];
  error: string | undefined;
  children: Entry[];
}

/** The flat traces of one transaction (docs/protocol/traces.md §3, §4). */
export function parityTraces(tree: TransactionCallTree, block: TracedBlock): ParityTrace[] {
  const root = tree.root ? rootEntry(tree) : remascEntry(tree);
  const traces: ParityTrace[] = [];
  const context = {
    blockHash: toData(block.hash),
    blockNumber: block.number,
    transactionHash: toData(tree.tx.transaction.hash()),
    transactionPosition: tree.tx.index,
  };
  const visit = (entry: Entry, traceAddress: number[]) => {
    const trace: ParityTrace = {
      action: entry.action,
      ...context,
      type: entry.type,
      subtraces: entry.children.length,
      traceAddress,
      result: entry.result,
    };
    if (entry.error !== undefined) trace.error = entry.error;
    traces.push(trace);
    entry.children.forEach((child, k) => {
      visit(child, [...traceAddress, k]);
    });
  };
  visit(root, []);
  return traces;
}

/** The transaction's own frame: gas and gasUsed as the receipt sees them (docs/protocol/traces.md §3 rules 1 to 3). */
function rootEntry(tree: TransactionCallTree): Entry {
  const frame = tree.root as CallFrame;
  const {start, end} = frame;
  const {transaction} = tree.tx;
  const gas = end.ranCode ? toQuantity(tree.tx.gasLimit) : ZERO;
  const gasUsed = toQuantity(tree.outcome.gasUsed);
  // A failing precompile called by the transaction itself shows no error (docs/protocol/traces.md §3 rule 3).
  const error = end.error !== undefined && !start.precompile ? traceError(end.error) : undefined;
  const children = childEntries(frame);
  const from = toData(transaction.sender());
  if (start.kind === "create" || start.kind === "create2") {
    const address = end.createdAddress ?? tree.outcome.contractAddress;
    return {
      type: "create",
      action: {from, gas, init: toData(start.input), value: toQuantity(start.value)},
      result:
        error === undefined
          ? {gasUsed, code: toData(end.output), address: toData(address ?? new Uint8Array(20))}
          : null,
      error,
      children,
    };
  }
  return {
    type: "call",
    action: {
      callType: "call",
      from,
      to: toData(start.to as Uint8Array),
      gas,
      input: toData(start.input),
      value: toQuantity(start.value),
    },
    result: error === undefined ? {gasUsed, output: toData(end.output)} : null,
    error,
    children,
  };
}

/** The REMASC transaction: a root call with one child per payment (docs/protocol/traces.md §4). */
function remascEntry(tree: TransactionCallTree): Entry {
  const call = (from: Uint8Array, to: Uint8Array, value: bigint, children: Entry[]): Entry => ({
    type: "call",
    action: {callType: "call", from: toData(from), to: toData(to), gas: ZERO, input: EMPTY, value: toQuantity(value)},
    result: {gasUsed: ZERO, output: EMPTY},
    error: undefined,
    children,
  });
  const payments = tree.remasc.map((payment) => call(payment.from, payment.to, payment.value, []));
  return call(REMASC_SENDER, REMASC_ADDRESS, 0n, payments);
}

/** The entries of a frame's children, leaving out precompile calls and failed creates (docs/protocol/traces.md §3). */
function childEntries(frame: CallFrame): Entry[] {
  const entries: Entry[] = [];
  for (const child of frame.children) {
    const entry = child.type === "selfdestruct" ? suicideEntry(child) : innerEntry(child);
    if (entry) entries.push(entry);
  }
  return entries;
}

function suicideEntry({event}: SelfDestructNode): Entry {
  return {
    type: "suicide",
    action: {
      address: toData(event.address),
      refundAddress: toData(event.beneficiary),
      balance: toQuantity(event.balance),
    },
    result: null,
    error: undefined,
    children: [],
  };
}

/** An internal frame, or undefined when none is shown (docs/protocol/traces.md §3 rules 4 and 5). */
function innerEntry(frame: CallFrame): Entry | undefined {
  const {start, end} = frame;
  const error = end.error === undefined ? undefined : traceError(end.error);
  if (start.kind === "create" || start.kind === "create2") {
    if (error !== undefined || start.input.length === 0 || end.createdAddress === undefined) return undefined;
    return {
      type: "create",
      action: {
        from: toData(start.from),
        gas: toQuantity(start.gas),
        init: toData(start.input),
        value: toQuantity(start.value),
        creationMethod: start.kind,
      },
      result: {gasUsed: toQuantity(end.gasUsed), code: toData(end.output), address: toData(end.createdAddress)},
      error,
      children: childEntries(frame),
    };
  }
  if (start.precompile) return undefined;
  // A codeless account: the frame exists, and used nothing.
  const result = end.ranCode
    ? {gasUsed: toQuantity(end.gasUsed), output: toData(end.output)}
    : {gasUsed: ZERO, output: EMPTY};
  return {
    type: "call",
    action: {
      callType: start.kind,
      from: toData(start.from),
      to: toData(start.to as Uint8Array),
      gas: toQuantity(start.gas),
      input: toData(start.input),
      value: toQuantity(start.value),
    },
    result: error === undefined ? result : null,
    error,
    children: childEntries(frame),
  };
}
