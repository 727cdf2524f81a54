/** The dotted flags of `xchain start`: one per configuration key, named as in node.config.toml. */
import {type Command, Option} from "commander";
import {flagName} from "../config/load.ts";
import {CONFIG_KEYS} from "../config/schema.ts";
import {expectedText, type ValueKind} from "../config/values.ts";

const PLACEHOLDERS: Record<ValueKind["type"], string> = {
  string: "value",
  path: "path",
  boolean: "bool",
  integer: "n",
  bigint: "n",
  address: "address",
  strings: "list",
};

/** Each key's flag; values are checked later, by the same code as the file's. */
const FLAGS = CONFIG_KEYS.map((spec) => {
  const value = spec.kind.type === "boolean" ? "[bool]" : `<${spec.placeholder ?? PLACEHOLDERS[spec.kind.type]}>`;
  return {
    key: spec.key,
    option: new Option(`${flagName(spec)} ${value}`, `${spec.description} (${expectedText(spec.kind)})`),
  };
});

/** Adds a flag for every configuration key. */
export function addConfigFlags(command: Command): Command {
  for (const {option} of FLAGS) command.addOption(option);
  return command;
}

/** The flags given on the command line, by configuration key (a bare boolean flag is `true`). */
export function givenConfigFlags(command: Command): Map<string, string | boolean> {
  const given = new Map<string, string | boolean>();
  for (const {key, option} of FLAGS) {
    const value = command.getOptionValue(option.attributeName()) as string | boolean | undefined;
    if (value !== undefined) given.set(key, value);
  }
  return given;
}
