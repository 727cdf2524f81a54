// One convention for each cross-cutting concern, checked on the sources: named exports, one
// logger, options in `options.ts`, and the `(opts, modules)` shape of the node's components.
import {existsSync, readdirSync, readFileSync, statSync} from "node:fs";
import {join, relative} from "node:path";
import ts from "typescript";
import {describe, expect, it} from "vitest";

const root = join(import.meta.dirname, "..");
const packages = readdirSync(join(root, "packages"));

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return entry.endsWith(".ts") && !entry.endsWith(".d.ts") ? [path] : [];
  });
}

const sources = packages.flatMap((pkg) =>
  tsFiles(join(root, "packages", pkg, "src")).map((path) => ({
    pkg,
    path: relative(root, path),
    ast: ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true),
  })),
);

/** Top-level declarations of a file with their names. */
function declarations(ast: ts.SourceFile): {name: string; node: ts.Node}[] {
  const found: {name: string; node: ts.Node}[] = [];
  for (const statement of ast.statements) {
    if (
      (ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isFunctionDeclaration(statement)) &&
      statement.name
    ) {
      found.push({name: statement.name.text, node: statement});
    }
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) found.push({name: d.name.text, node: d});
      }
    }
  }
  return found;
}

/**
 * The components built by the node runner, each with the method that takes its options and
 * modules (`constructor`, or a static factory when the constructor is private).
 */
const components: Record<string, string> = {
  Chain: "open",
  BlockExecutor: "constructor",
  StateDatabase: "constructor",
  TxPool: "constructor",
  Miner: "constructor",
  PeerScoringManager: "constructor",
  SyncManager: "constructor",
  Relay: "constructor",
};

describe("conventions", () => {
  it("every index.ts names its exports (no export *)", () => {
    const starred = sources
      .filter(({path}) => path.endsWith("index.ts"))
      .filter(({ast}) => ast.statements.some((s) => ts.isExportDeclaration(s) && !s.exportClause))
      .map(({path}) => path);
    expect(starred).toEqual([]);
  });

  it("one logger: only utils declares a Logger type or a no-op logger", () => {
    const loggers = sources
      .filter(({pkg}) => pkg !== "utils")
      .flatMap(({path, ast}) =>
        declarations(ast)
          .filter(
            ({name, node}) =>
              ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && /Logger$/.test(name)) ||
              (ts.isVariableDeclaration(node) && /^(silent|noop)/i.test(name)),
          )
          .map(({name}) => `${path}: ${name}`),
      );
    expect(loggers).toEqual([]);
  });

  it("a package's options and their defaults live in its options.ts", () => {
    const misplaced = sources
      .filter(({path}) => !path.endsWith("/src/options.ts"))
      .flatMap(({path, ast}) =>
        declarations(ast)
          .filter(({name}) => /^default\w*Options$/.test(name))
          .map(({name}) => `${path}: ${name}`),
      );
    expect(misplaced).toEqual([]);
  });

  it("the node's components take (opts: XOptions, modules: XModules)", () => {
    const shapes = new Map<string, string>();
    for (const {ast} of sources) {
      for (const {name, node} of declarations(ast)) {
        const method = components[name];
        if (!method || !ts.isClassDeclaration(node)) continue;
        const member = node.members.find((m) =>
          method === "constructor"
            ? ts.isConstructorDeclaration(m)
            : ts.isMethodDeclaration(m) && m.name.getText(ast) === method,
        ) as ts.FunctionLikeDeclaration | undefined;
        shapes.set(name, (member?.parameters ?? []).map((p) => p.type?.getText(ast) ?? "?").join(", "));
      }
    }
    for (const name of Object.keys(components)) {
      expect(shapes.get(name), name).toMatch(/^(Partial<)?\w+Options>?, \w+Modules$/);
    }
  });
});
