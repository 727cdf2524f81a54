/**
 * Access to the shared Rootstock test vectors (`../shared/vectors` beside the repository, as on
 * developer machines and in CI). `XCHAIN_VECTORS_DIR` overrides the location.
 */
import {existsSync, readFileSync} from "node:fs";
import {dirname, join, resolve} from "node:path";
import {fileURLToPath} from "node:url";

function findVectorsDir(): string {
  if (process.env.XCHAIN_VECTORS_DIR) return resolve(process.env.XCHAIN_VECTORS_DIR);
  // Walk up from this file to the repository root, whose sibling is shared/.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, "..", "shared", "vectors");
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "packages")) && existsSync(candidate)) {
      return resolve(candidate);
    }
    dir = dirname(dir);
  }
  throw new Error("shared/vectors not found beside the repository; set XCHAIN_VECTORS_DIR");
}

/** Absolute path of the shared vectors directory. */
export const vectorsDir: string = findVectorsDir();

/** Absolute path of one vector file. */
export function vectorPath(name: string): string {
  return join(vectorsDir, name);
}

/** Parses a JSON vector file. */
export function readJsonVector<T = unknown>(name: string): T {
  return JSON.parse(readFileSync(vectorPath(name), "utf8")) as T;
}

/** The 1,060 consecutive real mainnet headers (full RLP hex), oldest first. */
export function readMainnetHeaderLines(): string[] {
  return readFileSync(vectorPath("mainnet-headers-4479841-4480900.txt"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}
