/** The dotted flags of `xchain start`: one per configuration key, named as in node.config.toml. */
import {type Command, Option} from "commander";
import type {ConfigKey} from "../config/configKey.ts";
import {RPC_MODULES_DEFAULT_TEXT} from "../config/keys/rpc.ts";
import {flagName} from "../config/load.ts";
import {CONFIG_KEYS} from "../config/schema.ts";
import {getPath, mergeTrees} from "../config/tree.ts";
import {type ConfigValue, expectedText, formatValue, type ValueKind} from "../config/values.ts";
import {defaultNodeOptions, networkPreset} from "../options.ts";

const PLACEHOLDERS: Record<ValueKind["type"], string> = {
  string: "value",
  path: "path",
  boolean: "bool",
  integer: "n",
  bigint: "n",
  address: "address",
  strings: "list",
};

/** `--help` sections by the key's first part (its TOML table); `rpc.modules.*` have their own. */
const GROUPS: Record<string, string> = {
  network: "Node:",
  dataDir: "Node:",
  genesisFile: "Node:",
  log: "Node:",
  wallet: "Node:",
  state: "Node:",
  chain: "Chain:",
  fork: "Fork mode (a local chain over an upstream's state, docs/forking.md §4):",
  txpool: "Transaction pool:",
  miner: "Miner:",
  rpc: "JSON-RPC:",
  p2p: "P2P and sync:",
  sync: "P2P and sync:",
  unsafe: "Unsafe (each accepts one risky configuration that is otherwise refused):",
};

/** The section heading of the development flags that are not configuration keys (`--dev.*`). */
export const DEV_FLAGS_GROUP = "Development (regtest):";

/** The defaults `--help` shows: regtest's, as docs/config.md's table lists them first. */
const REGTEST_DEFAULTS = mergeTrees(defaultNodeOptions, networkPreset("regtest"));

function helpGroup(spec: ConfigKey): string {
  if (spec.key.startsWith("rpc.modules.")) return `JSON-RPC namespaces (${RPC_MODULES_DEFAULT_TEXT}):`;
  return GROUPS[spec.key.split(".")[0] as string] ?? "Other:";
}

/** The description with what the key accepts (a boolean's `[bool]` says it already) and its default. */
function helpText(spec: ConfigKey): string {
  const accepts = spec.kind.type === "boolean" ? [] : [expectedText(spec.kind)];
  const value = getPath(REGTEST_DEFAULTS, spec.key) as ConfigValue | undefined;
  const fallback = value === undefined ? "unset" : formatValue(value);
  return `${spec.description} (${[...accepts, `default: ${fallback}`].join("; ")})`;
}

/** Each key's flag; values are checked later, by the same code as the file's. */
const FLAGS = CONFIG_KEYS.map((spec) => {
  const value = spec.kind.type === "boolean" ? "[bool]" : `<${spec.placeholder ?? PLACEHOLDERS[spec.kind.type]}>`;
  return {
    key: spec.key,
    option: new Option(`${flagName(spec)} ${value}`, helpText(spec)).helpGroup(helpGroup(spec)),
  };
});

/** Adds a flag for every configuration key, grouped by table in `--help` with its regtest default. */
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
