/**
 * The index of xchain's commands: each one's name, the line `xchain --help` lists and how to load
 * its implementation. The implementations import the node's heavy packages (libp2p, ethereumjs,
 * LevelDB: over a second of start-up), so `xchain --version` and `xchain --help` load none of them
 * and a command loads only its own (docs/performance.md, "The command line's start-up").
 */
import type {Command} from "commander";

/** One command of the program. */
export interface CommandEntry {
  name: string;
  /** What it does, in the top-level list (its own `--help` shows the full description). */
  summary: string;
  /** What follows the name in that list: options, arguments, subcommands (a test checks it against the command). */
  term: string;
  /** The function adding the full command to the program. */
  load(): Promise<(program: Command) => void>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "start",
    summary: "start a node (database, chain, txpool, miner, JSON-RPC, p2p)",
    term: "[options]",
    load: async () => (await import("./cmds/start.ts")).registerStart,
  },
  {
    name: "verify-headers",
    summary: "validate consecutive full block headers, from a file or a node's RPC (--rpc)",
    term: "[options] [file]",
    load: async () => (await import("./cmds/verifyHeaders.ts")).registerVerifyHeaders,
  },
  {
    name: "genesis",
    summary: "print a network's genesis block hash and state root",
    term: "[options]",
    load: async () => (await import("./cmds/genesis.ts")).registerGenesis,
  },
  {
    name: "p2p-id",
    summary: "print the node's libp2p peer id, creating its key if missing",
    term: "[options]",
    load: async () => (await import("./cmds/p2pId.ts")).registerP2PId,
  },
  {
    name: "keys",
    summary: "manage the API keys of the gateway (rpc.gateway)",
    term: "<add|list|revoke|set>",
    load: async () => (await import("./cmds/keys.ts")).registerKeys,
  },
  {
    name: "db",
    summary: "check, repair, inspect, export, import and compact the database of a stopped node",
    term: "<verify|inspect|export|import|compact|repair>",
    load: async () => (await import("./cmds/db.ts")).registerDb,
  },
];

/**
 * The command `argv` (as `process.argv`) runs or asks help for: the first word that is not an
 * option (the program's own options take no value), or the one after `help`.
 */
export function commandNamedIn(argv: readonly string[]): string | undefined {
  const words = argv.slice(2).filter((arg) => !arg.startsWith("-"));
  return words[0] === "help" ? words[1] : words[0];
}

/** The term `xchain --help` would list for a loaded command, as `CommandEntry.term` spells it. */
export function termOf(command: Command): string {
  const parts = command.options.length > 0 ? ["[options]"] : [];
  for (const argument of command.registeredArguments) {
    const name = `${argument.name()}${argument.variadic ? "..." : ""}`;
    parts.push(argument.required ? `<${name}>` : `[${name}]`);
  }
  const subcommands = command.commands.map((c) => c.name());
  if (subcommands.length > 0) parts.push(`<${subcommands.join("|")}>`);
  return parts.join(" ");
}
