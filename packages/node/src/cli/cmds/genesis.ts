/** `xchain genesis`: print a network's genesis block hash and state root (deterministic). */
import {bytesToPrefixedHex} from "@xchain/utils";
import {type Command, Option} from "commander";
import {loadNetwork, NETWORK_CHOICES, type NetworkChoice} from "../../network.ts";

/** Registers the command on the program; the chain loads when it runs. */
export function registerGenesis(program: Command): void {
  program
    .command("genesis")
    .description("print the genesis block hash and state root of a network (xchain's MPT state, not rskj's)")
    .addOption(new Option("--network <name>", "network").choices(NETWORK_CHOICES).default("regtest"))
    .option("--genesis-file <file>", "genesis JSON of a custom network (with --network custom)")
    .action(async (opts: {network: NetworkChoice; genesisFile?: string}) => {
      if ((opts.network === "custom") !== (opts.genesisFile !== undefined)) {
        throw new Error("--genesis-file <file> goes with --network custom, and only with it");
      }
      const {chainspec, genesis, ignored} = await loadNetwork(opts.network, opts.genesisFile);
      if (ignored.length > 0) {
        console.error(`note: ignored ${ignored.join(", ")}: a custom network runs regtest's rules (docs/config.md)`);
      }
      const [{Chain, defaultChainOptions}, {MemoryStore}] = await Promise.all([
        import("@xchain/chain"),
        import("@xchain/db"),
      ]);
      // Building the genesis block needs a store only for its state trie; nothing is kept.
      const chain = await Chain.open(defaultChainOptions, {store: new MemoryStore(), chainspec, genesis});
      console.log(`network     ${opts.network} (chain id ${chainspec.params.chainId})`);
      console.log(`hash        ${bytesToPrefixedHex(chain.genesisHash)}`);
      console.log(`stateRoot   ${bytesToPrefixedHex(chain.head().header.stateRoot)}`);
    });
}
