// One convention for each cross-cutting concern, checked on the sources: named exports, one
// logger, options in `options.ts`, the `(opts, modules)` shape of every component the node
// builds, and telemetry by events (no Proxy wraps a component).
import {existsSync, readdirSync, readFileSync, statSync} from "node:fs";
import {dirname, join, relative, resolve} from "node:path";
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
  Node: "init",
  LevelStore: "open",
  StateDatabase: "constructor",
  ForkSource: "open",
  BlockExecutor: "constructor",
  Chain: "open",
  HeadRecorder: "constructor",
  ImpersonatedAccounts: "constructor",
  TxPool: "constructor",
  TxJournal: "constructor",
  Miner: "constructor",
  P2PNetwork: "start",
  PeerScoringManager: "constructor",
  SyncManager: "constructor",
  SenderRecovery: "constructor",
  Relay: "constructor",
  BlockLog: "constructor",
  HeadStallWatch: "constructor",
  CallService: "constructor",
  KeystoreWallet: "open",
  DappDb: "open",
  NodeForkControls: "constructor",
  RpcServer: "start",
};

/**
 * Components whose shape is not yet `(opts, modules)`, with the reason. LevelStore opens a path
 * first (every tool opens one); RpcServer's modules are still named `RpcDeps`; ImpersonatedAccounts
 * has no collaborators (it is the miner's `devControls` option and a set of addresses).
 */
const shapeExceptions: Record<string, RegExp> = {
  ImpersonatedAccounts: /^Pick<MinerOptions, "devControls">$/,
  LevelStore: /^string, LevelStoreOptions, LevelStoreModules$/,
  RpcServer: /^RpcOptions, RpcDeps$/,
};

/** The files the node runner (packages/node/src/node.ts) reaches through value imports inside its package. */
function runnerFiles(): typeof sources {
  const byPath = new Map(sources.map((s) => [join(root, s.path), s]));
  const reached = new Set<string>();
  const pending = [join(root, "packages/node/src/node.ts")];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    const source = byPath.get(path);
    if (!source || reached.has(path)) continue;
    reached.add(path);
    for (const specifier of runtimeImports(source.ast)) {
      if (specifier.startsWith(".")) pending.push(resolve(dirname(path), specifier));
    }
  }
  return [...reached].map((path) => byPath.get(path)!);
}

/** What a file imports at run time: its value imports, and its `import("…")` (the p2p stack and metrics load so). */
function runtimeImports(ast: ts.SourceFile): string[] {
  const specifiers: string[] = [];
  for (const statement of ast.statements) {
    if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) {
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) specifiers.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ast);
  return specifiers;
}

/** Every `new X(` of a file, and every `X.open(`, `X.start(` and `X.init(` (static factories). */
function constructed(ast: ts.SourceFile): string[] {
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) names.push(node.expression.text);
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      ["open", "start", "init"].includes(node.expression.name.text)
    ) {
      names.push(node.expression.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ast);
  return names;
}

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
      // A component without options takes its modules alone.
      const shape = shapeExceptions[name] ?? /^((Partial<)?\w+Options>?, )?\w+Modules$/;
      expect(shapes.get(name), name).toMatch(shape);
    }
  });

  it("the components list names every class of the workspace the node runner constructs", () => {
    const classes = new Set(
      sources.flatMap(({ast}) => declarations(ast).filter(({node}) => ts.isClassDeclaration(node))).map((d) => d.name),
    );
    // Errors are values, not components; PrivateKeyWallet and DerivationSlots are built by the dev wallet and the
    // keystore, from keys and a count; a SerialQueue is a utility (one task at a time) a component owns.
    const notComponents = /Error$|^(PrivateKeyWallet|DerivationSlots|SerialQueue)$/;
    const built = new Set(
      runnerFiles()
        .flatMap(({ast}) => constructed(ast))
        .filter((name) => classes.has(name) && !notComponents.test(name)),
    );
    expect([...built].filter((name) => !(name in components)).sort()).toEqual([]);
    expect(Object.keys(components).filter((name) => !built.has(name))).toEqual([]);
  });

  it("no Proxy wraps a component: telemetry subscribes to events (no `new Proxy(` in packages/*/src)", () => {
    const proxies: string[] = [];
    for (const {path, ast} of sources) {
      const visit = (node: ts.Node): void => {
        if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "Proxy") {
          proxies.push(`${path}:${ast.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(ast);
    }
    expect(proxies).toEqual([]);
  });
});

/** Logger methods: pino serializes an Error (message, stack, cause) only under `err`. */
const LOG_LEVELS = new Set(["fatal", "error", "warn", "info", "debug", "trace"]);

/**
 * Whether `name`, seen at `from`, is bound to a caught error: a `catch` clause's variable, or the
 * parameter of a callback given to `.catch(…)`, as the second argument of `.then(…)`, or to
 * `.on("error", …)`/`.once("error", …)`.
 */
function isCaughtError(name: string, from: ts.Node): boolean {
  for (let node: ts.Node | undefined = from; node; node = node.parent) {
    if (ts.isCatchClause(node)) {
      const binding = node.variableDeclaration?.name;
      if (binding && ts.isIdentifier(binding) && binding.text === name) return true;
    }
    if (ts.isFunctionLike(node) && node.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === name)) {
      const call = node.parent;
      if (!ts.isCallExpression(call) || !ts.isPropertyAccessExpression(call.expression)) return false;
      const method = call.expression.name.text;
      const position = call.arguments.indexOf(node as unknown as ts.Expression);
      if (method === "catch") return true;
      if (method === "then") return position === 1;
      const event = call.arguments[0];
      return (
        (method === "on" || method === "once") &&
        event !== undefined &&
        ts.isStringLiteral(event) &&
        event.text === "error"
      );
    }
  }
  return false;
}

/** The identifier an expression is, through parentheses and `as` casts. */
function identifierOf(expression: ts.Expression): ts.Identifier | undefined {
  let node = expression;
  while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) node = node.expression;
  return ts.isIdentifier(node) ? node : undefined;
}

describe("logging errors", () => {
  it("errors are logged under `err` only (pino writes `{}` for an Error under any other key)", () => {
    const misplaced: string[] = [];
    for (const {path, ast} of sources) {
      const visit = (node: ts.Node): void => {
        if (
          ts.isCallExpression(node) &&
          ts.isPropertyAccessExpression(node.expression) &&
          LOG_LEVELS.has(node.expression.name.text) &&
          node.arguments[0] !== undefined &&
          ts.isObjectLiteralExpression(node.arguments[0])
        ) {
          for (const property of node.arguments[0].properties) {
            if (!ts.isPropertyAssignment(property) && !ts.isShorthandPropertyAssignment(property)) continue;
            const key = property.name.getText(ast);
            if (key === "err") continue;
            const value = ts.isShorthandPropertyAssignment(property)
              ? property.name
              : identifierOf(property.initializer);
            if (key === "error" || (value && isCaughtError(value.text, node))) {
              const {line} = ast.getLineAndCharacterOfPosition(property.getStart(ast));
              misplaced.push(`${path}:${line + 1}: ${property.getText(ast)}`);
            }
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(ast);
    }
    expect(misplaced).toEqual([]);
  });
});
