/** The version of xchain (this package's), as `--version` and web3_clientVersion report it, and how it was built. */
import {createRequire} from "node:module";

/**
 * The package version, e.g. "0.1.0". Read by the package's own name (package.json "exports"), not a
 * relative path, so that it resolves the same from dist/ and from the start bundle (docs/performance.md §13).
 */
export const XCHAIN_VERSION: string = (createRequire(import.meta.url)("@xchain/node/package.json") as {version: string})
  .version;

/** Replaced by `true` in the start bundle (scripts/build/bundle.mjs, esbuild's `define`); undeclared under tsc. */
declare const __XCHAIN_BUNDLE__: boolean | undefined;

/**
 * How this process's code was loaded: "bundle" (packages/node/bundle, one file per entry and shared
 * chunks, docs/performance.md §13) or "modules" (each package's dist/, file by file).
 */
export const XCHAIN_BUILD: "bundle" | "modules" =
  typeof __XCHAIN_BUNDLE__ === "boolean" && __XCHAIN_BUNDLE__ ? "bundle" : "modules";
