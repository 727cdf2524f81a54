/** The `xchain` command-line program. */
import "@xchain/utils";
import {Command, CommanderError} from "commander";
import {XCHAIN_VERSION} from "../version.ts";
import {registerDb} from "./cmds/db.ts";
import {registerGenesis} from "./cmds/genesis.ts";
import {registerKeys} from "./cmds/keys.ts";
import {registerP2PId} from "./cmds/p2pId.ts";
import {registerStart} from "./cmds/start.ts";
import {registerVerifyHeaders} from "./cmds/verifyHeaders.ts";

/** Exit code for a usage error or a failure to read input. */
export const EXIT_USAGE = 2;

/** Builds the program with every command registered. */
export function buildProgram(): Command {
  const program = new Command("xchain")
    .description("xchain: a full node for a merge-mined, EVM-compatible proof-of-work chain (Rootstock-style)")
    .version(XCHAIN_VERSION, "-V, --version")
    .exitOverride();
  registerStart(program);
  registerVerifyHeaders(program);
  registerGenesis(program);
  registerP2PId(program);
  registerKeys(program);
  registerDb(program);
  // A usage error prints the error and where to read more, not the whole help (the start help is long).
  program.showHelpAfterError("Run 'xchain --help' for usage.");
  for (const command of program.commands) {
    command.showHelpAfterError(`Run 'xchain ${command.name()} --help' for usage.`);
  }
  return program;
}

/** Runs the program on `argv` (as `process.argv`) and resolves to the process exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return Number(process.exitCode ?? 0);
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : EXIT_USAGE;
    console.error(`xchain: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT_USAGE;
  }
}
