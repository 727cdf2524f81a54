/** `xchain p2p-id`: print the node's peer id (creating its identity key if missing), for scripting a network. */
import {makeDirectory} from "@xchain/utils";
import {type Command, Option} from "commander";
import {NETWORK_CHOICES, type NetworkChoice} from "../../network.ts";
import {defaultDataDir} from "../../options.ts";

/** Registers the command on the program; libp2p loads when it runs. */
export function registerP2PId(program: Command): void {
  program
    .command("p2p-id")
    .description("print the node's libp2p peer id from <datadir>/p2p.key, creating the key if it is missing")
    .addOption(
      new Option("--network <name>", "network (picks the default data directory)")
        .choices(NETWORK_CHOICES)
        .default("regtest"),
    )
    .option("--datadir <dir>", "the node's data directory (default ~/.xchain/<network>)")
    .action(async (opts: {network: NetworkChoice; datadir?: string}) => {
      const {loadOrCreateIdentity, peerIdOf} = await import("@xchain/p2p");
      const dataDir = opts.datadir ?? defaultDataDir(opts.network);
      await makeDirectory(dataDir);
      console.log(peerIdOf(await loadOrCreateIdentity(dataDir)));
    });
}
