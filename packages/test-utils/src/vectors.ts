/**
 * Access to the Rootstock test vectors kept in the repository (`test/vectors`, with their README
 * and provenance). The path is fixed relative to this package, from its sources and its build alike.
 */
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {fileURLToPath} from "node:url";

/** Absolute path of the repository's vectors directory (`src/` and `dist/` are both three levels down). */
export const vectorsDir: string = fileURLToPath(new URL("../../../test/vectors/", import.meta.url));

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
