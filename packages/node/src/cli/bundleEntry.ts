/**
 * Which program `bin/xchain.js` runs: the start bundle (packages/node/bundle, built by `npm run build`
 * after `tsc -b`: docs/performance.md §13) when it is there and was built from the dist/ files as
 * they are now, else dist/cli/program.js. Imports node: built-ins only, since it runs before either.
 *
 * The bundle's manifest lists the tsbuildinfo files of the packages it was built from with their
 * modification times; `tsc -b` rewrites a package's tsbuildinfo whenever it rebuilds the package, so a
 * time that moved (or a file gone, after `tsc -b --clean`) means the bundle is older than dist/. It
 * lists node_modules/.package-lock.json too, which npm rewrites at every install.
 */
import {readFileSync, statSync} from "node:fs";
import {join} from "node:path";

/** Where the bundle's builds and manifest are, under the node package's directory. */
export const BUNDLE_DIR = "bundle";
/** The manifest each build writes last, under BUNDLE_DIR. */
export const BUNDLE_MANIFEST = "manifest.json";
/** The bundle's entry of the command line, under the build's directory. */
export const BUNDLE_PROGRAM = join("dist", "cli", "program.js");
/** Set to "0" in the environment, the command line loads dist/ even where a fresh bundle is. */
export const BUNDLE_SWITCH = "XCHAIN_BUNDLE";

/** What the bundle's manifest records. */
export interface BundleManifest {
  /** The current build's directory under BUNDLE_DIR (the previous build's is kept for nodes started from it). */
  build: string;
  /** Each input's file (tsbuildinfo, npm's record; a path from the repository root) and its mtimeMs when the bundle was built. */
  inputs: Record<string, number>;
}

/**
 * The absolute path of the bundle's program under `packageDir` (the node package's directory) when
 * it may run, else undefined: no bundle, `XCHAIN_BUNDLE=0`, or a package rebuilt since the bundle.
 */
export function freshBundle(packageDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env[BUNDLE_SWITCH] === "0") return undefined;
  const bundleDir = join(packageDir, BUNDLE_DIR);
  let manifest: Partial<BundleManifest>;
  try {
    manifest = JSON.parse(readFileSync(join(bundleDir, BUNDLE_MANIFEST), "utf8")) as Partial<BundleManifest>;
  } catch {
    return undefined;
  }
  if (typeof manifest.build !== "string" || !/^[a-z0-9]+$/.test(manifest.build)) return undefined;
  const root = join(packageDir, "..", "..");
  for (const [file, mtimeMs] of Object.entries(manifest.inputs ?? {})) {
    const now = statSync(join(root, file), {throwIfNoEntry: false});
    if (now?.mtimeMs !== mtimeMs) return undefined;
  }
  return join(bundleDir, manifest.build, BUNDLE_PROGRAM);
}
