/** `xchain start`: run a node until SIGINT or SIGTERM (the node itself is in cli/runNode.ts, loaded when it runs). */
import type {Command} from "commander";
import {resolveNodeOptions} from "../../config/load.ts";
import {addConfigFlags, givenConfigFlags} from "../configFlags.ts";
import {EPHEMERAL_FLAG, withEphemeralDataDir} from "../ephemeral.ts";

const EXAMPLES = `
Defaults shown are regtest's; docs/config.md lists every network's.

Examples:
  # regtest: ten funded dev accounts, a block as soon as a transaction is pending
  xchain start
  # a throw-away regtest chain on port 8545, its data directory removed at exit
  xchain start --dev.ephemeral --rpc.http.port 8545
  # a testnet node that mines for your address (docs/running-a-network.md)
  xchain start --network testnet --datadir ~/xchain-testnet --miner.coinbase 0x<your address>`;

/** Registers the command on the program. */
export function registerStart(program: Command): void {
  const start = program
    .command("start")
    .description(
      "start a node: database, chain, txpool, miner and JSON-RPC; precedence of settings: " +
        "defaults < network preset < --config file < flags",
    )
    .option("--config <file>", "node.config.toml to read (every key is optional)")
    .addOption(EPHEMERAL_FLAG)
    .addHelpText("after", EXAMPLES);
  addConfigFlags(start).action(async (opts: {config?: string}, command: Command) => {
    const resolved = await resolveNodeOptions({configFile: opts.config, flags: givenConfigFlags(command)});
    const ephemeral = command.getOptionValue(EPHEMERAL_FLAG.attributeName()) === true;
    const options = ephemeral ? withEphemeralDataDir(resolved) : resolved;
    // The node's packages (libp2p, ethereumjs, LevelDB) load only now: `xchain start --help` needs none of them.
    const {runNode} = await import("../runNode.ts");
    await runNode(options);
  });
}
