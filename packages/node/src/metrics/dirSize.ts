/** The bytes a directory holds on disk, files of its subdirectories included (LevelDB's data directory). */
import {readdir, stat} from "node:fs/promises";
import {join} from "node:path";

/** Sum of the file sizes under `dir`; files that vanish while counted (LevelDB compacts) count 0. */
export async function directorySize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, {withFileTypes: true})) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await directorySize(path);
    else if (entry.isFile())
      total += await stat(path).then(
        (s) => s.size,
        () => 0,
      );
  }
  return total;
}

/**
 * `read` at most once per `maxAgeMs`: a scrape reuses the last value while it is fresh, and
 * concurrent scrapes share one read.
 */
export function cached<T>(read: () => Promise<T>, maxAgeMs: number, now: () => number = Date.now): () => Promise<T> {
  let last: {at: number; value: Promise<T>} | undefined;
  return () => {
    const at = now();
    if (!last || at - last.at >= maxAgeMs) {
      const value = read();
      last = {at, value};
      // A failed read is not kept: the next scrape tries again.
      value.catch(() => {
        if (last?.value === value) last = undefined;
      });
    }
    return last.value;
  };
}
