// The package graph as documented, and each package's imports as declared: the internal
// dependencies of every package are exactly those in docs/architecture.md; what a package's
// sources import is exactly its `dependencies`; what its tests import is declared; and no
// package has a file import cycle.
import {existsSync, readdirSync, readFileSync, statSync} from "node:fs";
import {isBuiltin} from "node:module";
import {dirname, join, relative, resolve} from "node:path";
import ts from "typescript";
import {describe, expect, it} from "vitest";

const root = join(import.meta.dirname, "..");
const packages = readdirSync(join(root, "packages"));

interface PackageJson {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function readJson<T>(...path: string[]): T {
  return JSON.parse(readFileSync(join(root, ...path), "utf8")) as T;
}

function documentedDeps(): Map<string, string[]> {
  const doc = readFileSync(join(root, "docs", "architecture.md"), "utf8");
  const table = doc
    .split("<!-- architecture-table: package | internal deps -->")[1]
    ?.split("<!-- /architecture-table -->")[0];
  if (!table) throw new Error("architecture table markers not found");
  const rows = new Map<string, string[]>();
  for (const line of table.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const name = cells[1]?.match(/^`([a-z0-9-]+)`$/)?.[1];
    if (!name) continue;
    const deps = cells[4] ?? "";
    rows.set(name, deps === "–" ? [] : deps.split(",").map((d) => d.trim()));
  }
  return rows;
}

/** The TypeScript and JavaScript files under `dir`, recursively (none when it does not exist). */
function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|mjs|js)$/.test(entry) && !entry.endsWith(".d.ts") ? [path] : [];
  });
}

/**
 * Every module specifier `file` imports or re-exports, type-only imports and dynamic `import()`
 * included, as the TypeScript compiler's own pre-processor finds them (no regular expressions).
 */
function importsOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles.map((f) => f.fileName);
}

/** The npm package a bare specifier names (`@scope/name/sub` → `@scope/name`); undefined for relative paths and builtins. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || isBuiltin(specifier)) return undefined;
  const parts = specifier.split("/");
  return (specifier.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

/** The npm packages the files under `dir` import, each with the first file that does. */
function importedPackages(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles(dir)) {
    for (const specifier of importsOf(file)) {
      const name = packageOf(specifier);
      if (name && !found.has(name)) found.set(name, relative(root, file));
    }
  }
  return found;
}

/**
 * The file import cycles among `files`, following relative imports (type-only ones included):
 * one cycle per back edge of a depth-first walk, each as a path that ends where it starts.
 */
function importCycles(files: string[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(file)
      .filter((s) => s.startsWith("."))
      .map((s) => resolve(dirname(file), s));
    edges.set(
      file,
      targets.filter((t) => edges.has(t) || files.includes(t)),
    );
  }
  const cycles: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      const onStack = stack.indexOf(next);
      if (onStack >= 0) cycles.push([...stack.slice(onStack), next].map((f) => relative(root, f)));
      else if (!done.has(next)) visit(next);
    }
    stack.pop();
    done.add(file);
  };
  for (const file of files) if (!done.has(file)) visit(file);
  return cycles;
}

describe("package dependencies", () => {
  const documented = documentedDeps();

  it("documents every package", () => {
    expect([...documented.keys()].sort()).toEqual([...packages].sort());
  });

  for (const pkg of packages) {
    it(`${pkg} depends on exactly its documented packages`, () => {
      const json = readJson<PackageJson>("packages", pkg, "package.json");
      const internal = Object.keys(json.dependencies ?? {})
        .filter((d) => d.startsWith("@xchain/"))
        .map((d) => d.slice("@xchain/".length))
        .sort();
      expect(internal).toEqual([...(documented.get(pkg) ?? [])].sort());
      // tsc -b builds in reference order, so the project references must follow the dependencies.
      const tsconfig = readJson<{references?: {path: string}[]}>("packages", pkg, "tsconfig.json");
      const refs = (tsconfig.references ?? []).map((r) => r.path.replace("../", "")).sort();
      expect(refs).toEqual(internal);
    });
  }
});

describe("imports match the declared dependencies", () => {
  const rootJson = readJson<PackageJson>("package.json");

  for (const pkg of packages) {
    const json = readJson<PackageJson>("packages", pkg, "package.json");

    // Every @xchain/* and npm package that src/ imports (type-only imports count: the build
    // needs them too) is in `dependencies`, and every one of `dependencies` is imported there.
    // node: builtins need no declaration.
    it(`${pkg}'s sources import exactly its dependencies`, () => {
      const imported = importedPackages(join(root, "packages", pkg, "src"));
      imported.delete(json.name);
      const declared = Object.keys(json.dependencies ?? {});
      const undeclared = [...imported].filter(([name]) => !declared.includes(name)).map(([n, f]) => `${n} (${f})`);
      const unused = declared.filter((name) => !imported.has(name));
      expect({undeclared, unused}).toEqual({undeclared: [], unused: []});
    });

    // A package's tests may import what its sources may, plus its own `devDependencies`
    // (the sibling packages it tests with, such as @xchain/test-utils), plus the tools every
    // test shares, which the root package.json provides as `devDependencies` (vitest,
    // fast-check, ethers…), plus the package itself.
    it(`${pkg}'s tests import only declared packages`, () => {
      const allowed = new Set([
        json.name,
        ...Object.keys(json.dependencies ?? {}),
        ...Object.keys(json.devDependencies ?? {}),
        ...Object.keys(rootJson.devDependencies ?? {}),
      ]);
      const imported = importedPackages(join(root, "packages", pkg, "test"));
      const undeclared = [...imported].filter(([name]) => !allowed.has(name)).map(([n, f]) => `${n} (${f})`);
      expect(undeclared).toEqual([]);
    });
  }
});

// Files of a package import each other in one direction only (type-only imports included).
describe("no file import cycles", () => {
  for (const pkg of packages) {
    it(`${pkg} has none`, () => {
      const files = [
        ...sourceFiles(join(root, "packages", pkg, "src")),
        ...sourceFiles(join(root, "packages", pkg, "test")),
      ];
      expect(importCycles(files).map((cycle) => cycle.join(" → "))).toEqual([]);
    });
  }
});

// rpc's src stands in layers (docs/architecture.md, "The request edge"): each folder or top-level
// file imports only those of lower layers (type-only imports included), so no arrow runs back up
// and the protocol core (`jsonrpc/`) cannot reach admission (`gateway/`, `limits/`). A new folder
// or file of src/ must be given its layer here.
describe("rpc's layers", () => {
  const layers: readonly (readonly string[])[] = [
    ["options.ts", "deps.ts", "keystoreBusy.ts", "keystoreRefusals.ts"],
    ["jsonrpc", "wallet.ts", "dappDb.ts"],
    ["params", "format", "openrpc", "limits"],
    ["caches", "resolve", "filters", "gateway", "transport", "typedDataHash.ts"],
    ["moduleDeps.ts", "errorMapping.ts"],
    ["trace"],
    ["modules"],
    ["server.ts"],
    ["index.ts"],
  ];
  const src = join(root, "packages", "rpc", "src");
  const layerOf = new Map(layers.flatMap((names, i) => names.map((name) => [name, i] as const)));
  /** The folder or top-level file of src/ that `file` is or lies in. */
  const entryOf = (file: string) => relative(src, file).split("/")[0] ?? "";

  it("every folder and top-level file of src/ has a layer", () => {
    expect(readdirSync(src).filter((entry) => !layerOf.has(entry))).toEqual([]);
  });

  it("each imports only lower layers", () => {
    const upward: string[] = [];
    for (const file of sourceFiles(src)) {
      const from = entryOf(file);
      for (const specifier of importsOf(file).filter((s) => s.startsWith("."))) {
        const to = entryOf(resolve(dirname(file), specifier));
        if (to === from) continue;
        if (!((layerOf.get(to) ?? Number.POSITIVE_INFINITY) < (layerOf.get(from) ?? 0))) {
          upward.push(`${relative(root, file)} → ${specifier}`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  it("jsonrpc/ imports nothing from gateway/ or limits/ (its own layer is below both)", () => {
    const jsonrpc = layerOf.get("jsonrpc") ?? 0;
    expect([layerOf.get("gateway"), layerOf.get("limits")].every((layer) => (layer ?? 0) > jsonrpc)).toBe(true);
  });
});
