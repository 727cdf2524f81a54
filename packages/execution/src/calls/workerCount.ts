/** How many call workers a node runs (`rpc.callWorkers`). */
import {availableParallelism} from "node:os";

/** Most workers by default: beyond, the main thread's request handling is the limit. */
const MAX_DEFAULT_WORKERS = 4;

/**
 * `configured` when set, else by core count: one fewer than the cores (the main thread keeps one
 * for HTTP and JSON), at most 4, so none on one core. On 2 cores one worker took distinct eth_calls
 * over RPC from 3,247/s to 5,003/s (docs/performance.md "eth_call on worker threads").
 */
export function callWorkerCount(configured: number | undefined, cores = availableParallelism()): number {
  if (configured !== undefined) return configured;
  return Math.min(MAX_DEFAULT_WORKERS, cores - 1);
}
