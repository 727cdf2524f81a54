/**
 * Importing `@xchain/rpc` loads no libp2p module (docs/architecture.md, "rpc"): rpc types the p2p
 * contracts it serves but never needs p2p's code, whose import alone loads ~750 libp2p modules. A
 * fresh `node` imports the built package with a module-resolution hook recording every URL it
 * resolves; the control run of `@xchain/p2p` shows the recorder sees libp2p where it is loaded.
 * Needs the build (`tsc -b`): the package resolves to its dist/.
 */
import {execFile} from "node:child_process";
import {mkdtempSync, readFileSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {pathToFileURL} from "node:url";
import {promisify} from "node:util";
import {describe, expect, it} from "vitest";

const root = join(import.meta.dirname, "..", "..");
const LIBP2P = /\/node_modules\/(libp2p|@libp2p|@chainsafe)\//;

/** The URLs a fresh process resolves while importing `specifier` (and what Node loads to start). */
async function resolvedWhileImporting(specifier: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "xchain-imports-"));
  const record = join(dir, "resolved.txt");
  const hooks = join(dir, "hooks.mjs");
  writeFileSync(
    hooks,
    `import {appendFileSync} from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(record)}, result.url + "\\n");
  return result;
}
`,
  );
  writeFileSync(record, "");
  const register = `import {register} from "node:module"; register(${JSON.stringify(pathToFileURL(hooks).href)});`;
  await promisify(execFile)(
    process.execPath,
    [
      "--import",
      `data:text/javascript,${encodeURIComponent(register)}`,
      "--input-type=module",
      "-e",
      `await import(${JSON.stringify(specifier)})`,
    ],
    {cwd: root},
  );
  return readFileSync(record, "utf8").split("\n").filter(Boolean);
}

describe("importing @xchain/rpc", () => {
  it("loads no libp2p module", async () => {
    const urls = await resolvedWhileImporting("@xchain/rpc");
    // It did import rpc (and its sibling packages) through the recorder.
    expect(urls.some((url) => url.endsWith("/packages/rpc/dist/index.js"))).toBe(true);
    expect(urls.filter((url) => LIBP2P.test(url))).toEqual([]);
  });

  it("while the recorder sees libp2p where it is loaded (@xchain/p2p)", async () => {
    const urls = await resolvedWhileImporting("@xchain/p2p");
    expect(urls.filter((url) => LIBP2P.test(url)).length).toBeGreaterThan(100);
  });
});
