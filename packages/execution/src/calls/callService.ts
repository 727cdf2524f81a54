/**
 * The call service: eth_call and eth_estimateGas on worker threads, so that calls use more than
 * the main thread's core. Each worker runs its own `CallRunner` over the node's LevelDB
 * (callWorker.ts); as trie nodes are content-addressed, a worker reads every persisted state root as
 * the main thread does (on a pruned node the chain refuses a root older than its window before the call
 * is sent: docs/operations.md §12). A call at a staged state (the pending block's,
 * held by the main thread's `StateDatabase` only: `isStaged`) runs in-process, as does a call
 * without its `parentHash`, a call on a forked chain (its view carries `forkAncestry`) and every
 * call when there are no workers. Tracing always runs in-process. A call that reaches the BlockHeader
 * native contract, whose reads of headers, uncles and total difficulties a worker leaves to the main thread
 * (storedAncestors.ts), is run again in-process when its worker hands it back.
 *
 * Same contract as `BlockExecutor.call`: the same results and typed errors; an aborted signal
 * rejects with `ExecutionInterruptedError` and the worker's preemption stops the run
 * (preemption.ts). The signals are looked at, not listened to: a call's `signal.aborted` is first
 * read once the call has outlived a poll period (the RPC makes a request's signal when it is first
 * read, and most calls end sooner), then at each poll, so an abort is seen within two periods of
 * `ABORT_POLL_MS`. A worker that exits fails its calls with `CallWorkerError` and is replaced.
 */
import {Worker} from "node:worker_threads";
import type {StateDatabase, StateReadCounts} from "@xchain/state";
import type {CacheUsage, Logger} from "@xchain/utils";
import {ExecutionInterruptedCode, ExecutionInterruptedError} from "../errors.ts";
import type {TraceScope} from "../tracing/traceBlock.ts";
import type {ExecutionTracer} from "../tracing/types.ts";
import type {CallInput, CallResult, ExecuteBlockInput, TransactionOutcome} from "../types.ts";
import {CallWorkerError, CallWorkerErrorCode} from "./errors.ts";
import {
  type CallWorkerData,
  type FromWorker,
  fromPortableError,
  fromPortableResult,
  type ToWorker,
  toPortableInput,
} from "./messages.ts";

/**
 * The compiled worker script, in this package: the same relative path from src/calls (tests run the
 * sources) and from dist/calls. Node 20 runs no TypeScript, so a worker always runs the build.
 */
const WORKER_SCRIPT = new URL("../../dist/calls/callWorker.js", import.meta.url);

/** Options of a `CallService`. */
export interface CallServiceOptions {
  /** Worker threads; 0 runs every call in-process (`callWorkerCount`). */
  workers: number;
  /** What each worker is given; `dbPath` is the path the main thread's handle was opened with `share`. */
  workerData: CallWorkerData;
}

/** What runs on the main thread: `BlockExecutor`'s `call`, `trace` and `traceCall`. */
export interface InProcessExecutor {
  call(input: CallInput): Promise<CallResult>;
  trace(input: ExecuteBlockInput, tracer: ExecutionTracer, scope?: TraceScope): Promise<TransactionOutcome[]>;
  traceCall(input: CallInput, tracer: ExecutionTracer): Promise<CallResult>;
}

/** What a `CallService` works with. */
export interface CallServiceModules {
  /** The in-process executor (a `BlockExecutor`): tracing, calls at staged states, every call without workers. */
  local: InProcessExecutor;
  /** The main thread's state database, asked which roots only it can read. */
  state: Pick<StateDatabase, "isStaged">;
  logger: Logger;
}

interface PendingCall {
  input: CallInput;
  resolve(result: CallResult): void;
  reject(error: unknown): void;
  /** Whether a poll has passed since the call was sent: its signal is looked at from the next one. */
  polled: boolean;
}

interface WorkerSlot {
  worker: Worker;
  ready: boolean;
  calls: Map<number, PendingCall>;
  /** Its last memory report. */
  memory?: {caches: CacheUsage[]; heapUsedBytes: number; reads: StateReadCounts};
}

/** Runs calls on a pool of worker threads, or in-process; implements the RPC's `CallExecutor`. */
export class CallService {
  private readonly slots: WorkerSlot[] = [];
  private nextId = 0;
  private closing = false;
  /** Looks at the signals of the calls in flight; running only while there are some. */
  private abortPoll: NodeJS.Timeout | undefined;

  constructor(
    private readonly opts: CallServiceOptions,
    private readonly modules: CallServiceModules,
  ) {
    for (let i = 0; i < opts.workers; i++) this.slots.push(this.spawn());
  }

  /** Waits until every worker has opened the database (tests and start-up; calls may be sent before). */
  async ready(): Promise<void> {
    await Promise.all(
      this.slots.map((slot) =>
        slot.ready
          ? undefined
          : new Promise<void>((resolve, reject) => {
              const onMessage = (m: FromWorker) => {
                if (m.type !== "ready") return;
                slot.worker.off("message", onMessage);
                slot.worker.off("exit", onExit);
                resolve();
              };
              const onExit = (code: number) =>
                reject(new Error(`call worker exited (code ${code}) before it was ready`));
              slot.worker.on("message", onMessage);
              slot.worker.once("exit", onExit);
            }),
      ),
    );
  }

  /**
   * `BlockExecutor.call`, on the least busy worker (in-process at a staged root, on a forked chain,
   * or without workers). A worker can reach neither a fork's upstream hashes nor its base.
   */
  call(input: CallInput): Promise<CallResult> {
    const slot = this.pick();
    const {parentHash} = input;
    const inProcess = parentHash === undefined || input.chain.forkAncestry !== undefined;
    if (!slot || inProcess || this.modules.state.isStaged(input.stateRoot)) {
      return this.modules.local.call(input);
    }
    const id = this.nextId++;
    return new Promise<CallResult>((resolve, reject) => {
      slot.calls.set(id, {input, resolve, reject, polled: false});
      slot.worker.postMessage({type: "call", id, input: toPortableInput(input, parentHash)} satisfies ToWorker);
      this.abortPoll ??= setInterval(() => this.pollAborts(), ABORT_POLL_MS).unref();
    });
  }

  /** The workers' caches against their budgets, each cache summed over the workers (their last reports). */
  cacheUsage(): CacheUsage[] {
    return this.slots.flatMap((slot) => slot.memory?.caches ?? []);
  }

  /** The V8 heap the workers use, summed (their last reports). */
  heapUsedBytes(): number {
    return this.slots.reduce((sum, slot) => sum + (slot.memory?.heapUsedBytes ?? 0), 0);
  }

  /** How the workers' state reads were served, summed (their last reports): flat state or trie. */
  stateReads(): StateReadCounts {
    const sum = {flat: 0, trie: 0};
    for (const slot of this.slots) {
      sum.flat += slot.memory?.reads.flat ?? 0;
      sum.trie += slot.memory?.reads.trie ?? 0;
    }
    return sum;
  }

  /** Tracing runs in-process. */
  trace(...args: Parameters<InProcessExecutor["trace"]>): ReturnType<InProcessExecutor["trace"]> {
    return this.modules.local.trace(...args);
  }

  /** A traced call runs in-process, as tracing does. */
  traceCall(input: CallInput, tracer: ExecutionTracer): Promise<CallResult> {
    return this.modules.local.traceCall(input, tracer);
  }

  /** Closes each worker's database handle and ends the workers. */
  async close(): Promise<void> {
    this.closing = true;
    this.stopAbortPoll();
    await Promise.all(
      this.slots.map(async ({worker}) => {
        const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
        worker.postMessage({type: "close"} satisfies ToWorker);
        // A worker that does not exit on its own (its database never opened) is stopped.
        const timer = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  /** Stops the calls whose signal is aborted; reads no signal of a call sent since the last poll. */
  private pollAborts(): void {
    let inFlight = 0;
    for (const slot of this.slots) {
      for (const [id, call] of slot.calls) {
        inFlight++;
        if (!call.polled) {
          call.polled = true;
          continue;
        }
        if (!call.input.signal?.aborted) continue;
        slot.calls.delete(id);
        slot.worker.postMessage({type: "abort", id} satisfies ToWorker);
        call.reject(interrupted());
      }
    }
    if (inFlight === 0) this.stopAbortPoll();
  }

  private stopAbortPoll(): void {
    clearInterval(this.abortPoll);
    this.abortPoll = undefined;
  }

  private pick(): WorkerSlot | undefined {
    let best: WorkerSlot | undefined;
    for (const slot of this.slots) if (!best || slot.calls.size < best.calls.size) best = slot;
    return best;
  }

  private spawn(): WorkerSlot {
    const worker = new Worker(WORKER_SCRIPT, {workerData: this.opts.workerData});
    const slot: WorkerSlot = {worker, ready: false, calls: new Map()};
    let failure = "exited";
    worker.on("message", (m: FromWorker) => this.onMessage(slot, m));
    worker.on("error", (e) => {
      failure = e.message;
    });
    worker.on("exit", (code) => this.onExit(slot, code, failure));
    return slot;
  }

  private onMessage(slot: WorkerSlot, message: FromWorker): void {
    if (message.type === "ready") {
      slot.ready = true;
      return;
    }
    if (message.type === "memory") {
      slot.memory = {caches: message.caches, heapUsedBytes: message.heapUsedBytes, reads: message.reads};
      return;
    }
    const call = slot.calls.get(message.id);
    if (!call) return; // aborted meanwhile: its caller has its answer
    slot.calls.delete(message.id);
    if (message.type === "result") call.resolve(fromPortableResult(message.result));
    else if (message.error.type?.code === CallWorkerErrorCode.NEEDS_MAIN_THREAD) {
      // Nothing of the worker's run is kept: the call runs again where the chain can be read.
      this.modules.local.call(call.input).then(call.resolve, call.reject);
    } else call.reject(fromPortableError(message.error));
  }

  private onExit(slot: WorkerSlot, code: number, failure: string): void {
    for (const call of slot.calls.values()) {
      call.reject(
        new CallWorkerError(
          {code: CallWorkerErrorCode.WORKER_EXITED, reason: failure},
          `call worker exited (code ${code}): ${failure}`,
        ),
      );
    }
    slot.calls.clear();
    const index = this.slots.indexOf(slot);
    if (this.closing || index === -1) return;
    if (!slot.ready) {
      // It never opened the database: a new one would fail the same way. Calls run in-process if none is left.
      this.slots.splice(index, 1);
      this.modules.logger.error({reason: failure}, "a call worker could not start; calls run on the main thread");
      return;
    }
    this.modules.logger.warn({code, reason: failure}, "a call worker exited; replacing it");
    this.slots[index] = this.spawn();
  }
}

/** How long a closing worker gets to close its database handle. */
const CLOSE_GRACE_MS = 5_000;

/** The period at which the signals of calls in flight are looked at. */
const ABORT_POLL_MS = 10;

function interrupted(): ExecutionInterruptedError {
  return new ExecutionInterruptedError({code: ExecutionInterruptedCode.ABORTED}, "call interrupted: aborted");
}
