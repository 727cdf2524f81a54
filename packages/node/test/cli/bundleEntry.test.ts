// Which program bin/xchain.js runs: the start bundle only while its manifest's tsbuildinfo times are
// the ones on disk (docs/performance.md §13), and never with XCHAIN_BUNDLE=0.
import {mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterEach, beforeEach, describe, expect, it} from "vitest";
import {BUNDLE_DIR, BUNDLE_MANIFEST, BUNDLE_PROGRAM, freshBundle} from "../../src/cli/bundleEntry.ts";

let root: string;
let nodeDir: string;
const buildInfo = join("packages", "utils", "tsconfig.tsbuildinfo");

/** A repository with one package's tsbuildinfo and, unless `manifest` is false, a bundle built from it now. */
function layout(manifest = true): void {
  mkdirSync(join(root, "packages", "utils"), {recursive: true});
  writeFileSync(join(root, buildInfo), "{}");
  mkdirSync(join(nodeDir, BUNDLE_DIR), {recursive: true});
  if (!manifest) return;
  const inputs = {[buildInfo]: statSync(join(root, buildInfo)).mtimeMs};
  writeFileSync(join(nodeDir, BUNDLE_DIR, BUNDLE_MANIFEST), JSON.stringify({build: "b1", inputs}));
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "xchain-bundle-entry-"));
  nodeDir = join(root, "packages", "node");
});

afterEach(() => {
  rmSync(root, {recursive: true, force: true});
});

describe("the start bundle's selection", () => {
  it("runs the bundle built from the dist/ files as they are", () => {
    layout();
    expect(freshBundle(nodeDir, {})).toBe(join(nodeDir, BUNDLE_DIR, "b1", BUNDLE_PROGRAM));
  });

  it("runs dist/ once a package was rebuilt after the bundle (its tsbuildinfo's time moved)", () => {
    layout();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, buildInfo), later, later);
    expect(freshBundle(nodeDir, {})).toBeUndefined();
  });

  it("runs dist/ when a package's tsbuildinfo is gone (tsc -b --clean)", () => {
    layout();
    rmSync(join(root, buildInfo));
    expect(freshBundle(nodeDir, {})).toBeUndefined();
  });

  it("runs dist/ without a manifest (no bundle, or one being swapped in)", () => {
    layout(false);
    expect(freshBundle(nodeDir, {})).toBeUndefined();
  });

  it("runs dist/ when the manifest names no build, or a path for one", () => {
    layout();
    const manifest = join(nodeDir, BUNDLE_DIR, BUNDLE_MANIFEST);
    const inputs = {[buildInfo]: statSync(join(root, buildInfo)).mtimeMs};
    writeFileSync(manifest, JSON.stringify({inputs}));
    expect(freshBundle(nodeDir, {})).toBeUndefined();
    writeFileSync(manifest, JSON.stringify({build: "../../dist", inputs}));
    expect(freshBundle(nodeDir, {})).toBeUndefined();
  });

  it("runs dist/ when XCHAIN_BUNDLE=0, and the bundle with any other value", () => {
    layout();
    expect(freshBundle(nodeDir, {XCHAIN_BUNDLE: "0"})).toBeUndefined();
    expect(freshBundle(nodeDir, {XCHAIN_BUNDLE: "1"})).toBeDefined();
  });
});
