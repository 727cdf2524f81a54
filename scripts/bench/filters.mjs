// Memory and time of pending-transaction filters nobody polls: FILTERS filters installed, then
// TXS transactions become pending; heap growth (after a full GC) and the time the fan-out took.
// Unit level: the real EventHub and FilterManager on a stub chain and txpool, transactions reduced
// to their hash. Needs a build and --expose-gc.
//
//   node --expose-gc scripts/bench/filters.mjs [filters=1000] [txs=5000]
import {EventEmitter} from "node:events";
import {defaultRpcOptions} from "@xchain/rpc";
import {keccak256, noopLogger, utf8ToBytes} from "@xchain/utils";
import {EventHub} from "../../packages/rpc/dist/filters/eventHub.js";
import {FilterManager} from "../../packages/rpc/dist/filters/filterManager.js";

const filterCount = Number(process.argv[2] ?? 1000);
const txCount = Number(process.argv[3] ?? 5000);
if (typeof global.gc !== "function") throw new Error("run with node --expose-gc");

// The filters read nothing of a transaction but its (cached) hash: a keccak-256 like the real one.
const txs = Array.from({length: txCount}, (_, i) => {
  const hash = keccak256(utf8ToBytes(`tx ${i}`));
  return {hash: () => hash};
});
const pending = new Set();
const txpool = {
  onPending: (listener) => {
    pending.add(listener);
    return () => pending.delete(listener);
  },
};
const chain = {events: new EventEmitter()};
const hub = new EventHub(chain, txpool, noopLogger);
const filters = new FilterManager(
  hub,
  {...defaultRpcOptions, maxFilters: filterCount, maxFiltersPerClient: filterCount},
  noopLogger,
);
for (let i = 0; i < filterCount; i++)
  filters.installHashFilter("pendingTransactions", {address: "", connectionId: 0, key: "bench"});

const heap = async () => {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    global.gc();
  }
  return process.memoryUsage().heapUsed;
};
const before = await heap();
const start = performance.now();
for (const tx of txs) for (const listener of pending) listener(tx);
const elapsedMs = performance.now() - start;
const after = await heap();
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);
console.log(
  `${filterCount} pending filters x ${txCount} transactions: heap +${mib(after - before)} MiB, ` +
    `fan-out ${elapsedMs.toFixed(0)} ms`,
);
filters.close();
hub.close();
