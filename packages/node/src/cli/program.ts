/**
 * The `xchain` command-line program. Only the command that runs is loaded (cli/commands.ts), so
 * `xchain --version` and `xchain --help` answer without importing the node.
 */
import {Command, CommanderError, Help} from "commander";
import {XCHAIN_VERSION} from "../version.ts";
import {COMMANDS, type CommandEntry, commandNamedIn} from "./commands.ts";
import {hintForeignFlags} from "./foreignFlags.ts";

/** Exit code for a usage error or a failure to read input. */
export const EXIT_USAGE = 2;

/** The full command's registration; the polyfills of @xchain/utils load before anything else (docs/dependencies.md §2). */
async function loadCommand(entry: CommandEntry): Promise<(program: Command) => void> {
  await import("@xchain/utils");
  return entry.load();
}

/**
 * Builds the program: the commands `isLoaded` accepts in full, the others as their name and summary
 * only, enough for `xchain --help` and for commander to say that a mistyped command is unknown.
 */
export async function buildProgram(isLoaded: (name: string) => boolean = () => true): Promise<Command> {
  const program = new Command("xchain")
    .description("xchain: a full node for a merge-mined, EVM-compatible proof-of-work chain (Rootstock-style)")
    .version(XCHAIN_VERSION, "-V, --version")
    .exitOverride();
  for (const entry of COMMANDS) {
    if (isLoaded(entry.name)) (await loadCommand(entry))(program);
    else program.command(entry.name);
    (program.commands.at(-1) as Command).summary(entry.summary);
  }
  // The list shows each command as the index spells it, loaded or not (commander's `help` as it does).
  const terms = new Map(COMMANDS.map((entry) => [entry.name, `${entry.name} ${entry.term}`]));
  const help = new Help();
  program.configureHelp({subcommandTerm: (command) => terms.get(command.name()) ?? help.subcommandTerm(command)});
  // A usage error prints the error and where to read more, not the whole help (the start help is long).
  program.showHelpAfterError("Run 'xchain --help' for usage.");
  hintForeignFlags(program, " (a flag of xchain start)");
  for (const command of program.commands) {
    command.showHelpAfterError(`Run 'xchain ${command.name()} --help' for usage.`);
    if (command.name() === "start") hintForeignFlags(command);
  }
  return program;
}

/** Runs the program on `argv` (as `process.argv`) and resolves to the process exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const named = commandNamedIn(argv);
  try {
    const program = await buildProgram((name) => name === named);
    await program.parseAsync(argv);
    return Number(process.exitCode ?? 0);
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : EXIT_USAGE;
    console.error(`xchain: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT_USAGE;
  }
}
