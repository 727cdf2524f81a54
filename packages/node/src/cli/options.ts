/** Options shared by several commands. */
import {networkNames} from "@xchain/chainspec";
import {Option} from "commander";

/** `--network <name>`: one of the built-in networks, required (a wrong default would judge data by the wrong rules). */
export function networkOption(): Option {
  return new Option("--network <name>", "network whose rules apply").choices(networkNames).makeOptionMandatory();
}
