/**
 * Stopping with the npm that started the node. `npx xchain start` runs the node under `sh -c`,
 * and npm forwards SIGINT/SIGTERM to that shell, which dies without passing them on: the node
 * would be left running, adopted by init. Under npm (it sets `npm_command`), the node therefore
 * treats the loss of its parent as a stop request. Started any other way, it keeps running
 * when its parent exits (`nohup xchain start &`).
 */

/** How often the parent is checked. */
const PARENT_POLL_MS = 500;

/** Calls `onLost` once when the process's parent changes, if npm started it; returns the stop. */
export function watchNpmParent(onLost: () => void): () => void {
  if (process.env.npm_command === undefined) return () => {};
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onLost();
  }, PARENT_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
