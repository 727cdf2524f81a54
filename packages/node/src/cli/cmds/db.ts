/** `xchain db verify|repair`: find the damage of a stopped node's database, and recover from it (docs/operations.md §6). */
import {type Command, Option} from "commander";
import type {ToolOutput} from "../../dataDir/dbTools.ts";
import {loadNetwork, NETWORK_CHOICES, type NetworkChoice} from "../../network.ts";
import {defaultDataDir} from "../../options.ts";

interface DbFlags {
  network: NetworkChoice;
  datadir?: string;
  genesisFile?: string;
}

const output: ToolOutput = {
  line: (text) => console.log(text),
  progress: (text) => console.error(text),
};

/** Registers the command and its subcommands on the program; the tools load when one runs. */
export function registerDb(program: Command): void {
  const db = program.command("db").description("check and repair the database of a stopped node");
  const withDataDir = (command: Command) =>
    command
      .addOption(new Option("--network <name>", "network").choices(NETWORK_CHOICES).default("regtest"))
      .option("--datadir <dir>", "the node's data directory (default ~/.xchain/<network>)")
      .option("--genesis-file <file>", "the genesis file, for network custom");

  withDataDir(
    db
      .command("verify")
      .description(
        "walk the canonical chain (headers, bodies, receipts, total difficulty, indexes) and the head's whole state; " +
          "print the first damage (exit 1) or that the database is whole",
      ),
  ).action(async (flags: DbFlags) => {
    const {verifyDatabase} = await import("../../dataDir/dbTools.ts");
    const {chainspec} = await loadNetwork(flags.network, flags.genesisFile);
    const whole = await verifyDatabase(flags.datadir ?? defaultDataDir(flags.network), chainspec, output);
    process.exitCode = whole ? 0 : 1;
  });

  withDataDir(
    db
      .command("repair")
      .description(
        "bring a damaged database back: LevelDB's repair if it does not open, then the head rewound to the highest " +
          "block whose chain and state are whole (the blocks above are forgotten; peers send them again)",
      ),
  ).action(async (flags: DbFlags) => {
    const {repairDatabase} = await import("../../dataDir/dbTools.ts");
    const network = await loadNetwork(flags.network, flags.genesisFile);
    await repairDatabase(flags.datadir ?? defaultDataDir(flags.network), network, output);
  });
}
