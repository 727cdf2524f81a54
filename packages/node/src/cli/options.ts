/** Options shared by several commands. */
import {networkNames} from "@xchain/chainspec";
import {InvalidArgumentError, Option} from "commander";

/** `--network <name>`: one of the built-in networks, required (a wrong default would judge data by the wrong rules). */
export function networkOption(): Option {
  return new Option("--network <name>", "network whose rules apply").choices(networkNames).makeOptionMandatory();
}

/** A decimal whole number of at least `min` (commander's parser of an option's value). */
export function integer(value: string, min: number, what: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min) {
    throw new InvalidArgumentError(`${what}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** A block number option's value (decimal). */
export const blockNumber = (value: string): number => integer(value, 0, "expected a block number (decimal)");
