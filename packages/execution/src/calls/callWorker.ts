/**
 * A call worker (a worker thread of a `CallService`, callService.ts): its own `CallRunner` (what
 * `BlockExecutor.call` runs) over its own `StateDatabase` over the node's LevelDB, joined through
 * classic-level's multithreading.
 * It runs the calls the main thread posts, concurrently as the main thread's executor does, each
 * stopped by an abort message; BLOCKHASH answers come from the stored headers (storedAncestors.ts).
 * All it knows of the node comes in `workerData` (`CallWorkerData`).
 */
import {getHeapStatistics} from "node:v8";
import {parentPort, workerData} from "node:worker_threads";
import {Chainspec} from "@xchain/chainspec";
import {LevelStore} from "@xchain/db";
import {StateDatabase} from "@xchain/state";
import {ProfileCommons} from "../common.ts";
import {CallRunner} from "./callRunner.ts";
import {
  type CallWorkerData,
  type FromWorker,
  fromPortableInput,
  MEMORY_REPORT_MS,
  type ToWorker,
  toPortableError,
  toPortableResult,
} from "./messages.ts";
import {StoredAncestors} from "./storedAncestors.ts";

const port = parentPort;
if (!port) throw new Error("callWorker.ts runs as a worker thread");
const data = workerData as CallWorkerData;
/** The stop flag of each running call (no `AbortController`: the run only reads `aborted`). */
const aborts = new Map<number, {aborted: boolean}>();
const post = (message: FromWorker) => port.postMessage(message);

const opened = (async () => {
  const chainspec = new Chainspec(data.chainParams);
  const store = await LevelStore.open(data.dbPath, {threads: "join", create: false});
  const state = new StateDatabase(data.state, {store});
  const runner = new CallRunner(chainspec, state, new ProfileCommons(chainspec));
  return {store, state, ancestors: new StoredAncestors(store), runner};
})();

async function run(id: number, message: Extract<ToWorker, {type: "call"}>["input"]): Promise<void> {
  const stop = {aborted: false};
  aborts.set(id, stop);
  try {
    const {runner, ancestors} = await opened;
    const result = await runner.call(fromPortableInput(message, ancestors, stop));
    post({type: "result", id, result: toPortableResult(result)});
  } catch (e) {
    post({type: "error", id, error: toPortableError(e)});
  } finally {
    aborts.delete(id);
  }
}

port.on("message", (message: ToWorker) => {
  switch (message.type) {
    case "call":
      void run(message.id, message.input);
      break;
    case "abort":
      {
        const stop = aborts.get(message.id);
        if (stop) stop.aborted = true;
      }
      break;
    case "close":
      // The shared LevelDB instance closes with its last handle: this one must be closed, not dropped.
      void opened.then(({store}) => store.close()).finally(() => port.close());
      break;
  }
});

// The main thread learns that the worker can serve (its database is open) or why not (it exits
// with the error); then, now and then, what its caches and heap hold (the node's memory metrics).
opened.then(
  ({state}) => {
    post({type: "ready"});
    const report = () =>
      post({
        type: "memory",
        caches: state.cacheUsage("callWorkers"),
        heapUsedBytes: getHeapStatistics().used_heap_size,
        reads: state.readCounts(),
      });
    report();
    setInterval(report, MEMORY_REPORT_MS).unref();
  },
  (e: unknown) => {
    throw e;
  },
);
