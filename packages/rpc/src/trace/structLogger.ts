/**
 * debug_trace*'s default tracer, the struct logger with rskj's top-level keys and geth's `gas`,
 * `failed` and `returnValue` after them (docs/protocol/debug-traces.md §3): one JSON object per
 * transaction, its `structLogs` written step by step as text, each entry's bytes reserved before
 * it is kept so that a huge trace stops at the response cap.
 */
import type {
  ExecutionTracer,
  FrameEnd,
  FrameStart,
  TracedTransaction,
  TraceStep,
  TransactionOutcome,
} from "@xchain/execution";
import {bytesToHex} from "@xchain/utils";
import {gethError} from "./gethCallTracer.ts";

/** What to leave out of every struct log. */
export interface StructLogOptions {
  disableStack: boolean;
  disableMemory: boolean;
  disableStorage: boolean;
}

/** One traced transaction's result, serialized. */
export interface StructLogResult {
  tx: TracedTransaction;
  json: string;
}

/** Slot → value, both 64 hex digits without 0x. */
type Slots = Map<string, string>;

/** A step whose entry waits for the next step: an SLOAD's value is the next step's stack top. */
interface PendingLog {
  head: string;
  address: string;
  depth: number;
  sloadKey: string | undefined;
}

const SLOAD = 0x54;
const SSTORE = 0x55;
/** Steps between two checks of the request's signal. */
const ABORT_CHECK_STEPS = 1024;

/** The struct logger. `reserve` counts bytes and throws to stop; `checkAbort` throws once the request is abandoned. */
export class StructLogTracer implements ExecutionTracer {
  readonly results: StructLogResult[] = [];
  private logs: string[] = [];
  private storages = new Map<string, Slots>();
  private storageJson = new Map<string, string>();
  private initStorage: Slots = new Map();
  private written = new Set<string>();
  private pending: PendingLog | undefined;
  private rootAddress: string | undefined;
  private rootEnd: FrameEnd | undefined;
  private depth = 0;
  private steps = 0;

  constructor(
    private readonly options: StructLogOptions,
    private readonly reserve: (bytes: number) => void,
    private readonly checkAbort: () => void,
  ) {}

  transactionStart(): void {
    this.logs = [];
    this.storages = new Map();
    this.storageJson = new Map();
    this.initStorage = new Map();
    this.written = new Set();
    this.pending = undefined;
    this.rootAddress = undefined;
    this.rootEnd = undefined;
    this.depth = 0;
  }

  frameStart(_start: FrameStart): void {
    this.depth++;
  }

  frameEnd(end: FrameEnd): void {
    this.flush(undefined);
    this.depth--;
    if (this.depth === 0) this.rootEnd = end;
  }

  step(step: TraceStep): void {
    if (++this.steps % ABORT_CHECK_STEPS === 0) this.checkAbort();
    this.flush(step);
    const address = bytesToHex(step.address);
    if (step.depth === 0) this.rootAddress ??= address;
    const {stack} = step;
    let sloadKey: string | undefined;
    if (step.opcode === SLOAD && stack.length >= 1) sloadKey = word(stack[stack.length - 1] as bigint);
    if (step.opcode === SSTORE && stack.length >= 2) {
      const key = word(stack[stack.length - 1] as bigint);
      this.setSlot(address, key, word(stack[stack.length - 2] as bigint));
      // Its value before the transaction is unknown: it is not listed in initStorage.
      if (address === this.rootAddress) this.written.add(key);
    }
    let head = `{"op":"${step.op}","depth":${step.depth},"pc":${step.pc},"gas":${step.gas},"gasCost":${step.gasCost}`;
    if (!this.options.disableMemory) head += `,"memory":${memoryJson(step.memory)}`;
    if (!this.options.disableStack) head += `,"stack":[${stack.map((v) => `"${word(v)}"`).join(",")}]`;
    this.pending = {head, address, depth: step.depth, sloadKey};
  }

  transactionEnd(tx: TracedTransaction, outcome: TransactionOutcome): void {
    this.flush(undefined);
    const root = this.rootEnd;
    const contract = tx.transaction.to ?? outcome.contractAddress;
    const address = contract ? bytesToHex(contract) : (this.rootAddress ?? "");
    const current = this.storages.get(this.rootAddress ?? address) ?? new Map<string, string>();
    const reverted = root?.error === "revert";
    const error = root?.error === undefined || reverted ? "" : gethError(root.error);
    const output = root ? bytesToHex(root.output) : "";
    const head = `{"contractAddress":"${address}","initStorage":${slotsJson(this.initStorage)},"structLogs":[`;
    const tail =
      `],"result":"${output}","error":${JSON.stringify(error)},"reverted":${reverted},` +
      `"storageSize":${current.size},"currentStorage":${slotsJson(current)},${gethSummary(outcome, root, output)}}`;
    this.reserve(head.length + tail.length);
    this.results.push({tx, json: head + this.logs.join(",") + tail});
    this.logs = [];
  }

  /** Writes the pending entry; `next` is the step after it, which holds an SLOAD's value. */
  private flush(next: TraceStep | undefined): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    if (pending.sloadKey !== undefined && next !== undefined && next.depth === pending.depth && next.stack.length > 0) {
      const value = word(next.stack[next.stack.length - 1] as bigint);
      this.setSlot(pending.address, pending.sloadKey, value);
      const first = !this.written.has(pending.sloadKey) && !this.initStorage.has(pending.sloadKey);
      if (pending.address === this.rootAddress && first) this.initStorage.set(pending.sloadKey, value);
    }
    const text = this.options.disableStorage
      ? `${pending.head}}`
      : `${pending.head},"storage":${this.storageOf(pending.address)}}`;
    // One byte more for the separator; the text is ASCII.
    this.reserve(text.length + 1);
    this.logs.push(text);
  }

  private setSlot(address: string, key: string, value: string): void {
    let slots = this.storages.get(address);
    if (!slots) {
      slots = new Map();
      this.storages.set(address, slots);
    }
    slots.set(key, value);
    this.storageJson.delete(address);
  }

  private storageOf(address: string): string {
    let json = this.storageJson.get(address);
    if (json === undefined) {
      json = slotsJson(this.storages.get(address) ?? new Map());
      this.storageJson.set(address, json);
    }
    return json;
  }
}

/**
 * geth's top-level keys (docs/protocol/debug-traces.md §3.1): `gas`, the gas the receipt charges (a
 * JSON number); `failed`, whether the root frame failed (a revert included); `returnValue`, the root
 * frame's output (its revert data on a revert) as hex without 0x, empty after any other failure.
 */
function gethSummary(outcome: TransactionOutcome, root: FrameEnd | undefined, output: string): string {
  const failed = root?.error !== undefined;
  const returnValue = failed && root?.error !== "revert" ? "" : output;
  return `"gas":${outcome.gasUsed},"failed":${failed},"returnValue":"${returnValue}"`;
}

/** A stack word or slot: 64 hex digits without 0x. */
function word(value: bigint): string {
  return value.toString(16).padStart(64, "0");
}

/** Memory as 32-byte chunks of hex without 0x. */
function memoryJson(memory: Uint8Array): string {
  const hex = bytesToHex(memory);
  const chunks: string[] = [];
  for (let i = 0; i < hex.length; i += 64) chunks.push(`"${hex.slice(i, i + 64)}"`);
  return `[${chunks.join(",")}]`;
}

/** Slots as a JSON object, keys sorted. */
function slotsJson(slots: Slots): string {
  const keys = [...slots.keys()].sort();
  return `{${keys.map((k) => `"${k}":"${slots.get(k)}"`).join(",")}}`;
}
