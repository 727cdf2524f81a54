// Every `--flag` the docs name exists: a flag of an xchain command (a configuration key of
// `xchain start`, or a command's own option), of scripts/merge-miner.mjs, or of another tool the
// docs quote by name (listed below with the tool).
import {readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import type {Command} from "commander";
import {describe, expect, it} from "vitest";
import {FOREIGN_FLAGS_WITH_HINTS} from "../packages/node/src/cli/foreignFlags.ts";
import {buildProgram} from "../packages/node/src/cli/program.ts";

const root = join(import.meta.dirname, "..");

/** Flags of other programs that the docs quote, and whose they are. */
const FOREIGN_FLAGS: Record<string, string> = {
  "--project": "vitest",
  "--cpu-prof": "node",
  "--expose-gc": "node",
  "--max-semi-space-size": "node",
  "--max-old-space-size": "node",
  "--heapsnapshot-signal": "node",
  "--minutes": "scripts/bench/soak.mjs",
  "--heap-snapshots": "scripts/bench/soak.mjs",
  "--perf-basic-prof": "node",
  "--enable-source-maps": "node",
  "--rpc-url": "cast/forge",
  "--private-key": "cast/forge",
  "--legacy": "cast/forge",
  "--block-time": "anvil",
  "--http.vhosts": "geth",
  "--ws.origins": "geth",
  "--rpc.gascap": "geth",
  "--rpc.evmtimeout": "geth",
  "--rpc.batch-request-limit": "geth",
  "--rpc.batch-response-max-size": "geth",
  "--allow-insecure-unlock": "geth",
  "--error-on-fail": "patch-package",
  "--exclude": "patch-package",
  "--cacert": "curl",
  "--loads": "scripts/bench/rpc.mjs",
  "--no-anvil": "scripts/bench/rpc.mjs",
  "--driver": "scripts/bench/rpc.mjs",
  "--before": "scripts/bench/compare.mjs",
  "--fresh": "scripts/bench/fork.mjs",
  "--holders": "scripts/bench/fork.mjs",
  "--only": "scripts/bench/fork.mjs",
  "--rounds": "scripts/bench/fork.mjs",
  "--retain": "scripts/bench/storage.mjs",
  "--sample": "scripts/bench/storage.mjs",
  "--pace-ms": "scripts/bench/storage.mjs",
  "--import": "scripts/bench/storage.mjs",
  "--keep": "scripts/bench/storage.mjs",
  "--cache": "scripts/bench/storage.mjs",
  "--fork-url": "anvil",
  "--fork-block-number": "anvil",
  "--cache-path": "anvil",
  // docs/config.md shows the error a mistyped flag gets.
  "--rpc.http.prot": "a typo, on purpose",
};

/** The long flags of every xchain command and subcommand (`xchain keys add`). */
function xchainFlags(program: Command): Set<string> {
  const flags = new Set<string>();
  const visit = (command: Command): void => {
    for (const option of command.options) if (option.long !== undefined) flags.add(option.long);
    for (const sub of command.commands) visit(sub);
  };
  visit(program);
  return flags;
}

const program = await buildProgram();

/** The long flags of merge-miner.mjs, as its usage text lists them. */
function mergeMinerFlags(): string[] {
  const script = readFileSync(join(root, "scripts", "merge-miner.mjs"), "utf8");
  return [...script.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1] as string);
}

const docs = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f)),
];

describe("flags named in the docs", () => {
  // The flags of anvil, Hardhat and geth that `xchain start` answers with a hint are named in docs/config.md.
  const known = new Set([
    ...xchainFlags(program),
    ...mergeMinerFlags(),
    "--help",
    ...Object.keys(FOREIGN_FLAGS),
    ...FOREIGN_FLAGS_WITH_HINTS,
  ]);

  it("finds the flags of xchain start and of merge-miner.mjs", () => {
    expect(known).toContain("--rpc.http.port");
    expect(known).toContain("--dev.ephemeral");
    expect(known).toContain("--interval");
  });

  for (const doc of docs) {
    it(`${doc} names only flags that exist`, () => {
      const text = readFileSync(join(root, doc), "utf8");
      const named = [...text.matchAll(/(?<![\w-])--[a-zA-Z][\w-]*(?:\.[a-zA-Z][\w-]*)*/g)].map((m) => m[0]);
      expect(named.filter((flag) => !known.has(flag))).toEqual([]);
    });
  }
});
