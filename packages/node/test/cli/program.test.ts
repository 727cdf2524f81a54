// The command line's lazy loading: `xchain --version` and `--help` must not import the node (the
// static import graph of the entry point reaches commander only), nor must a command's own `--help`
// (its definition reaches none of the node's heavy packages), and the index that lists the commands
// without loading them agrees with the commands themselves.
import {readFileSync} from "node:fs";
import {dirname, join, resolve} from "node:path";
import ts from "typescript";
import {describe, expect, it} from "vitest";
import {COMMANDS, commandNamedIn, termOf} from "../../src/cli/commands.ts";
import {foreignFlagHint} from "../../src/cli/foreignFlags.ts";
import {buildProgram} from "../../src/cli/program.ts";

const packagesDir = join(import.meta.dirname, "..", "..", "..");

/** The modules a file imports when it is evaluated: top-level imports and re-exports, not `import type` nor `import()`. */
function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) {
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specifiers;
}

/**
 * The packages (not node: built-ins) that evaluating `entry` loads, following the workspace's own
 * sources: a package's light entry point (`@xchain/p2p/options`, package.json "exports") is its file in src/.
 */
function packagesReached(entry: string): Set<string> {
  const reached = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier));
      else if (specifier.startsWith("@xchain/")) {
        reached.add(specifier);
        const [name, entryPoint = "index"] = specifier.slice("@xchain/".length).split("/");
        visit(join(packagesDir, name as string, "src", `${entryPoint}.ts`));
      } else if (!specifier.startsWith("node:")) {
        const parts = specifier.split("/");
        reached.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string));
      }
    }
  };
  visit(entry);
  return reached;
}

describe("the xchain entry point", () => {
  it("loads commander only before it knows the command (--version, --help)", () => {
    expect([...packagesReached(join(packagesDir, "node", "src", "cli", "program.ts"))]).toEqual(["commander"]);
  });

  it("would see the node's packages if the entry point imported a command (the check can fail)", () => {
    const start = packagesReached(join(packagesDir, "node", "src", "cli", "runNode.ts"));
    expect(start).toContain("@ethereumjs/evm");
    expect(start).toContain("@xchain/execution");
  });

  // Each command's `--help` loads its definition only: the light bottom of the package graph, the
  // options' defaults and commander; the node's packages load in the action (docs/performance.md §23).
  const LIGHT_PACKAGES = /^(@xchain\/(utils|primitives|chainspec)|@xchain\/[a-z0-9-]+\/options|@xchain\/p2p\/types)$/;
  const HEAVY_PACKAGES = /^(@xchain\/|libp2p$|@libp2p\/|@chainsafe\/|@ethereumjs\/|classic-level$|prom-client$|ws$)/;
  for (const file of ["start", "verifyHeaders", "genesis", "p2pId", "keys", "db"]) {
    it(`defines ${file} without loading the node`, () => {
      const reached = [...packagesReached(join(packagesDir, "node", "src", "cli", "cmds", `${file}.ts`))];
      expect(reached.filter((name) => HEAVY_PACKAGES.test(name) && !LIGHT_PACKAGES.test(name))).toEqual([]);
    });
  }

  it("finds the command in argv, and the one `help` asks for", () => {
    expect(commandNamedIn(["node", "xchain", "--version"])).toBeUndefined();
    expect(commandNamedIn(["node", "xchain", "start", "--rpc.http.port", "1"])).toBe("start");
    expect(commandNamedIn(["node", "xchain", "help", "genesis"])).toBe("genesis");
  });

  it("lists each command as its index entry says, which matches the loaded command", async () => {
    const program = await buildProgram();
    expect(program.commands.map((c) => c.name())).toEqual(COMMANDS.map((c) => c.name));
    for (const entry of COMMANDS) {
      const command = program.commands.find((c) => c.name() === entry.name);
      expect(termOf(command!), entry.name).toBe(entry.term);
    }
    const lazy = await buildProgram(() => false);
    expect(lazy.helpInformation()).toMatch(/verify-headers \[options\] \[file\] +validate consecutive/);
    expect(lazy.helpInformation()).toMatch(/keys <add\|list\|revoke\|set> +manage the API keys/);
  });

  it("hints xchain's flag for anvil's, Hardhat's and geth's", () => {
    expect(foreignFlagHint("--port=8545")).toMatch(/--rpc\.http\.port/);
    expect(foreignFlagHint("--block-time")).toMatch(/--miner\.blockTimeMs/);
    expect(foreignFlagHint("--fork-url")).toMatch(/--fork\.url/);
    expect(foreignFlagHint("--fork-block-number")).toMatch(/--fork\.block/);
    expect(foreignFlagHint("--rpc.http.prot")).toBeUndefined();
    expect(foreignFlagHint("--constructor")).toBeUndefined();
  });
});

describe("the node's start path", () => {
  // Loaded when their feature is on (wiring/p2p.ts, node.ts, preflight.ts): a node without p2p or
  // metrics starts without libp2p, the sync or prom-client (docs/performance.md §13).
  it("reaches neither libp2p, the sync nor prom-client", () => {
    const reached = [...packagesReached(join(packagesDir, "node", "src", "cli", "runNode.ts"))];
    expect(reached.filter((name) => /^(libp2p|@libp2p\/.*|@xchain\/(p2p|sync)|prom-client)$/.test(name))).toEqual([]);
  });

  it("would see them if the start imported the p2p stack (the check can fail)", () => {
    const reached = packagesReached(join(packagesDir, "node", "src", "p2pStack.ts"));
    expect(reached).toContain("libp2p");
    expect(reached).toContain("@xchain/sync");
  });
});
