/**
 * eth_call and eth_estimateGas on worker threads, so that calls use more than the main thread's
 * core. Each worker runs its own `BlockExecutor` over the node's LevelDB (callWorker.ts); as
 * trie nodes are content-addressed and never deleted, a worker reads every persisted state root
 * as the main thread does. A state that is not stored (the pending block's, staged in the main
 * thread's `StateDatabase` only) runs in-process: the worker answers STATE_ROOT_MISSING and the
 * call goes to the main thread's executor. Tracing always runs in-process.
 *
 * Same contract as `BlockExecutor.call`: the same results and typed errors; an aborted signal
 * rejects with `ExecutionInterruptedError` and the worker's preemption stops the run
 * (preemption.ts). The signals are looked at, not listened to: a call's `signal.aborted` is first
 * read once the call has outlived a poll period (the RPC makes a request's signal when it is first
 * read, and most calls end sooner), then at each poll, so an abort is seen within two periods of
 * `ABORT_POLL_MS`. A worker that exits fails its calls with `CallWorkerError` and is replaced.
 */
import {Worker} from "node:worker_threads";
import {
  type BlockExecutor,
  type CallInput,
  type CallResult,
  ExecutionInterruptedCode,
  ExecutionInterruptedError,
} from "@xchain/execution";
import {StateError, StateErrorCode} from "@xchain/state";
import {bytesToHex, type CacheUsage, type Logger} from "@xchain/utils";
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
 * The compiled worker script. The same relative path from src/callWorkers (tests run the sources)
 * and from dist/callWorkers: Node 20 runs no TypeScript, so a worker always runs the build.
 */
/** Roots the workers could not find, remembered: the pending block's latest few states. */
const UNSTORED_ROOTS_KEPT = 4;

const WORKER_SCRIPT = new URL("../../dist/callWorkers/callWorker.js", import.meta.url);

/** Options of a `WorkerCallExecutor`. */
export interface WorkerCallExecutorOptions {
  /** Worker threads (at least 1). */
  workers: number;
  /** What each worker opens; `dbPath` is the path the main thread's handle was opened with `share`. */
  workerData: CallWorkerData;
}

/** What a `WorkerCallExecutor` works with. */
export interface WorkerCallExecutorModules {
  /** The in-process executor: tracing, and calls at states that are not stored. */
  local: Pick<BlockExecutor, "call" | "trace">;
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
  memory?: {caches: CacheUsage[]; heapUsedBytes: number};
}

/** Runs calls on a pool of worker threads; implements the RPC's `CallExecutor`. */
export class WorkerCallExecutor {
  private readonly slots: WorkerSlot[] = [];
  private nextId = 0;
  private closing = false;
  /** Hex state roots the workers answered ROOT_MISSING for, oldest first. */
  private readonly unstoredRoots: string[] = [];
  /** Looks at the signals of the calls in flight; running only while there are some. */
  private abortPoll: NodeJS.Timeout | undefined;

  constructor(
    private readonly opts: WorkerCallExecutorOptions,
    private readonly modules: WorkerCallExecutorModules,
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

  /** `BlockExecutor.call`, on the least busy worker (in-process at a root the workers could not find). */
  call(input: CallInput): Promise<CallResult> {
    const slot = this.pick();
    if (!slot || this.unstoredRoots.includes(bytesToHex(input.stateRoot))) return this.modules.local.call(input);
    const id = this.nextId++;
    return new Promise<CallResult>((resolve, reject) => {
      slot.calls.set(id, {input, resolve, reject, polled: false});
      slot.worker.postMessage({type: "call", id, input: toPortableInput(input)} satisfies ToWorker);
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

  /** Tracing runs in-process. */
  trace(...args: Parameters<BlockExecutor["trace"]>): ReturnType<BlockExecutor["trace"]> {
    return this.modules.local.trace(...args);
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
      slot.memory = {caches: message.caches, heapUsedBytes: message.heapUsedBytes};
      return;
    }
    const call = slot.calls.get(message.id);
    if (!call) return; // aborted meanwhile: its caller has its answer
    if (message.type === "blockHash") {
      call.input.chain.blockHash(message.number).then(
        (hash) => slot.worker.postMessage({type: "blockHash", request: message.request, hash} satisfies ToWorker),
        (e: unknown) => {
          this.modules.logger.error({err: e}, "BLOCKHASH lookup for a call worker failed");
          slot.worker.postMessage({type: "blockHash", request: message.request, hash: undefined} satisfies ToWorker);
        },
      );
      return;
    }
    slot.calls.delete(message.id);
    if (message.type === "result") {
      call.resolve(fromPortableResult(message.result));
      return;
    }
    const error = fromPortableError(message.error);
    // Not stored: the pending block's state, which only the main thread holds. Its next calls (an
    // estimate's trial runs, the other calls at `pending`) go there at once.
    if (error instanceof StateError && error.code === StateErrorCode.ROOT_MISSING) {
      this.unstoredRoots.push(bytesToHex(call.input.stateRoot));
      if (this.unstoredRoots.length > UNSTORED_ROOTS_KEPT) this.unstoredRoots.shift();
      this.modules.local.call(call.input).then(call.resolve, call.reject);
      return;
    }
    call.reject(error);
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
