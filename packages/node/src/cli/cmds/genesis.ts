/** `xchain genesis`: print a network's genesis block hash and state root (deterministic). */
import {readFile} from "node:fs/promises";
import {Chain} from "@xchain/chain";
import {
  type Chainspec,
  type GenesisParams,
  getChainspec,
  getGenesisParams,
  parseCustomGenesis,
} from "@xchain/chainspec";
import {MemoryStore} from "@xchain/db";
import {bytesToPrefixedHex} from "@xchain/utils";
import {type Command, Option} from "commander";

type GenesisNetwork = "mainnet" | "testnet" | "regtest" | "custom";

/** Registers the command on the program. */
export function registerGenesis(program: Command): void {
  program
    .command("genesis")
    .description("print the genesis block hash and state root of a network (xchain's MPT state, not rskj's)")
    .addOption(
      new Option("--network <name>", "network").choices(["mainnet", "testnet", "regtest", "custom"]).default("regtest"),
    )
    .option("--genesis-file <file>", "genesis JSON of a custom network (with --network custom)")
    .action(async (opts: {network: GenesisNetwork; genesisFile?: string}) => {
      const {chainspec, genesis} = await loadNetwork(opts.network, opts.genesisFile);
      // Building the genesis block needs a store only for its state trie; nothing is kept.
      const chain = await Chain.open({store: new MemoryStore(), chainspec, genesis});
      console.log(`network     ${opts.network} (chain id ${chainspec.params.chainId})`);
      console.log(`hash        ${bytesToPrefixedHex(chain.genesisHash)}`);
      console.log(`stateRoot   ${bytesToPrefixedHex(chain.head().header.stateRoot)}`);
    });
}

/** The chainspec and genesis of a built-in network, or of a custom network's genesis file. */
export async function loadNetwork(
  network: GenesisNetwork,
  genesisFile: string | undefined,
): Promise<{chainspec: Chainspec; genesis: GenesisParams}> {
  if (network !== "custom") {
    if (genesisFile !== undefined) throw new Error("--genesis-file is only for --network custom");
    return {chainspec: getChainspec(network), genesis: getGenesisParams(network)};
  }
  if (genesisFile === undefined) throw new Error("--network custom needs --genesis-file <file>");
  return parseCustomGenesis(await readFile(genesisFile, "utf8"));
}
