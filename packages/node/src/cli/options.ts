/** Options shared by several commands. */
import {type NetworkName, networkNames} from "@xchain/chainspec";
import {Option} from "commander";

/** `--network <name>`: one of the built-in networks. */
export function networkOption(defaultNetwork: NetworkName = "regtest"): Option {
  return new Option("--network <name>", "network whose rules apply").choices(networkNames).default(defaultNetwork);
}
