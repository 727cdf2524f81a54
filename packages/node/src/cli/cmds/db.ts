/**
 * `xchain db`: the tools of a stopped node's database. `verify|repair` find its damage and recover
 * from it (docs/operations.md §6); `inspect|export|import|compact` measure it, move its chain to
 * another node and compact it (docs/operations.md §5).
 */
import {type Command, Option} from "commander";
import {resolveNodeOptions} from "../../config/load.ts";
import type {ToolOutput} from "../../dataDir/dbTools.ts";
import {createLogger} from "../../logger.ts";
import {loadNetwork, NETWORK_CHOICES, type NetworkChoice} from "../../network.ts";
import {defaultDataDir} from "../../options.ts";
import {blockNumber} from "../options.ts";

interface DbFlags {
  network: NetworkChoice;
  datadir?: string;
  genesisFile?: string;
}

const FILE_FORMAT =
  "FILE: the canonical blocks' RLP encodings ([header, transactions, uncles]) one after another, as geth's export " +
  "writes them; gzip when FILE ends in .gz; - for stdin/stdout";

const output: ToolOutput = {
  line: (text) => console.log(text),
  progress: (text) => console.error(text),
};

/** Registers the command and its subcommands on the program; the tools load when one runs. */
export function registerDb(program: Command): void {
  const db = program
    .command("db")
    .description("check, repair, inspect, export, import and compact the database of a stopped node");
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
      .command("inspect")
      .summary("sizes per bucket, head, genesis, schema version, oldest state served")
      .description(
        "the database's size per bucket (on disk: LevelDB's estimate; keys and bytes: a scan of the whole database), " +
          "its chain's head, genesis, schema version and the oldest block whose state is stored",
      )
      .option("--json", "print one JSON object (for scripts)")
      .option("--no-count", "skip the scan counting each bucket's keys and bytes (it reads the whole database)"),
  ).action(async (flags: DbFlags & {json?: boolean; count: boolean}) => {
    const {formatInspection, inspectDatabase} = await import("../../dataDir/inspectDatabase.ts");
    const {chainspec} = await loadNetwork(flags.network, flags.genesisFile);
    const inspection = await inspectDatabase(flags.datadir ?? defaultDataDir(flags.network), chainspec, {
      count: flags.count,
    });
    if (flags.json) output.line(JSON.stringify(inspection, null, 2));
    else for (const line of formatInspection(inspection)) output.line(line);
  });

  withDataDir(
    db
      .command("export")
      .summary("write the canonical blocks to FILE (RLP, geth's export format; - for stdout)")
      .description(`write the canonical blocks to FILE, progress on stderr. ${FILE_FORMAT}`)
      .argument("<file>", "the file to write (- for stdout)")
      .option("--from <number>", "first block (default 0, the genesis)", blockNumber)
      .option("--to <number>", "last block (default the head)", blockNumber),
  ).action(async (file: string, flags: DbFlags & {from?: number; to?: number}) => {
    const {exportChain} = await import("../../dataDir/exportChain.ts");
    const {chainspec} = await loadNetwork(flags.network, flags.genesisFile);
    const dataDir = flags.datadir ?? defaultDataDir(flags.network);
    await exportChain(dataDir, chainspec, {file, from: flags.from, to: flags.to}, output);
  });

  withDataDir(
    db
      .command("import")
      .summary("import the blocks of FILE through the chain's import, resumable (- for stdin)")
      .description(
        "import the blocks of FILE (written by db export) into a fresh or older data directory through the chain's " +
          "import, as sync does (validation, execution, one batch per block); blocks already stored are skipped, so " +
          `running it again resumes it; stops at the first invalid block, naming it. ${FILE_FORMAT}`,
      )
      .argument("<file>", "the file to read (- for stdin)")
      .option("--config <file>", "node.config.toml to read, as xchain start does (the chain's settings)"),
  ).action(async (file: string, flags: DbFlags & {config?: string}) => {
    const given = new Map<string, string>([["network", flags.network]]);
    if (flags.datadir !== undefined) given.set("dataDir", flags.datadir);
    if (flags.genesisFile !== undefined) given.set("genesisFile", flags.genesisFile);
    const options = await resolveNodeOptions({configFile: flags.config, flags: given});
    const {importChain} = await import("../../dataDir/importChain.ts");
    await importChain(options, file, output, createLogger("warn"));
  });

  withDataDir(
    db
      .command("compact")
      .summary("compact the whole database, printing its size before and after")
      .description(
        "compact the whole database (LevelDB's compaction of every key range: overwritten and deleted entries are dropped)",
      ),
  ).action(async (flags: DbFlags) => {
    const {bytes, compactDatabase} = await import("../../dataDir/inspectDatabase.ts");
    const dataDir = flags.datadir ?? defaultDataDir(flags.network);
    const {before, after} = await compactDatabase(dataDir);
    output.line(`compacted ${dataDir}/db: ${bytes(before)} before, ${bytes(after)} after`);
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
