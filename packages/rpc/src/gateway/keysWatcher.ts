/**
 * Watches the keys file so that a running node picks up `xchain keys` changes without a restart
 * (docs/gateway.md): `fs.watch` on its directory (the file is replaced by a rename, which a watch
 * on the file itself would lose) for a quick reaction, and a stat every `pollMs` for file systems
 * where watching does not work. Changes are debounced.
 */
import {type FSWatcher, watch} from "node:fs";
import {stat} from "node:fs/promises";
import {basename, dirname} from "node:path";

/** How often the file is stat'ed when no watch event came. */
export const KEYS_POLL_MS = 1_000;
/** How long a burst of events is waited out before one reload. */
export const KEYS_DEBOUNCE_MS = 100;

/** Calls `onChange` (debounced) whenever the file at `path` may have changed; returns the stop function. */
export function watchKeysFile(
  path: string,
  onChange: () => void,
  timing: {pollMs: number; debounceMs: number} = {pollMs: KEYS_POLL_MS, debounceMs: KEYS_DEBOUNCE_MS},
): () => void {
  let debounce: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(debounce);
    debounce = setTimeout(onChange, timing.debounceMs);
    debounce.unref();
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(path), {persistent: false}, (_event, name) => {
      if (name === null || name === basename(path)) changed();
    });
    // A watch that fails later (the directory removed) leaves the poll to do the work.
    watcher.on("error", () => watcher?.close());
  } catch {
    watcher = undefined;
  }
  let last = "";
  const poll = setInterval(() => {
    stat(path).then(
      (s) => fingerprint(`${s.ino}:${s.size}:${s.mtimeMs}`),
      () => fingerprint("missing"),
    );
  }, timing.pollMs);
  poll.unref();
  const fingerprint = (now: string) => {
    if (last !== "" && now !== last) changed();
    last = now;
  };
  return () => {
    clearInterval(poll);
    clearTimeout(debounce);
    watcher?.close();
  };
}
