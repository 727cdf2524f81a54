/** How many call workers a node runs (`rpc.callWorkers`). */
import {availableParallelism} from "node:os";

/** Most workers by default: beyond, the main thread's request handling is the limit. */
const MAX_DEFAULT_WORKERS = 4;

/**
 * `configured` when set, else by core count: none on 2 cores or fewer, where workers were measured
 * not to pay (docs/performance.md: the main thread and one worker then share the cores with
 * everything else), else one fewer than the cores (the main thread keeps one), at most 4.
 */
export function callWorkerCount(configured: number | undefined, cores = availableParallelism()): number {
  if (configured !== undefined) return configured;
  return cores <= 2 ? 0 : Math.min(MAX_DEFAULT_WORKERS, cores - 1);
}
