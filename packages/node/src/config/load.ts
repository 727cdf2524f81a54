/**
 * Resolves a node's options from its sources, in precedence order: built-in defaults < the
 * network preset < node.config.toml < command-line flags. The file is strict: an unknown key or a
 * bad value stops start-up with a `ConfigError` naming the key and what it accepts.
 */
import {readFile} from "node:fs/promises";
import {BridgeConfigError, getChainspec, withGenesisFederationKeys} from "@xchain/chainspec";
import {parse, TomlError} from "smol-toml";
import {checkForkOptions, isForkMode} from "../fork/forkOptions.ts";
import {defaultDataDir, defaultNodeOptions, type NetworkChoice, type NodeOptions, networkPreset} from "../options.ts";
import type {ConfigKey} from "./configKey.ts";
import {ConfigError, ConfigErrorCode} from "./errors.ts";
import {CONFIG_KEYS, configKey} from "./schema.ts";
import {isTable, mergeTrees, type OptionTree, setPath} from "./tree.ts";
import {type ConfigValue, parseValue} from "./values.ts";

/** What the user gave: a config file and the flags set on the command line. */
export interface ConfigSources {
  /** Path of a node.config.toml; none means defaults, preset and flags only. */
  configFile?: string;
  /** Flag values by dotted key, as typed (a bare boolean flag is `true`). */
  flags?: ReadonlyMap<string, string | boolean>;
}

/** Parsed values by dotted key, from one source. */
type Values = Map<string, ConfigValue>;

/** The options the sources describe; throws `ConfigError` on an unknown key, a bad value or a conflict. */
export async function resolveNodeOptions(sources: ConfigSources): Promise<NodeOptions> {
  const fromFile = sources.configFile === undefined ? new Map() : await readConfigFile(sources.configFile);
  const fromFlags = parseFlags(sources.flags ?? new Map());
  const network = (fromFlags.get("network") ?? fromFile.get("network") ?? defaultNodeOptions.network) as NetworkChoice;
  let options = mergeTrees(defaultNodeOptions, networkPreset(network));
  for (const values of [fromFile, fromFlags]) options = mergeTrees(options, toTree(values));
  // A fork's chain lives apart from the regtest chain unless a data directory is given (docs/forking.md §4).
  if (isForkMode(options) && !fromFile.has("dataDir") && !fromFlags.has("dataDir")) {
    options = {...options, dataDir: defaultDataDir("fork")};
  }
  checkConsistency(options);
  checkForkOptions(options);
  return options;
}

/** Reads and validates a node.config.toml. */
export async function readConfigFile(path: string): Promise<Values> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    throw new ConfigError({code: ConfigErrorCode.FILE_UNREADABLE, path, reason: (e as Error).message});
  }
  let table: OptionTree;
  try {
    // Integers beyond 2^53 (wei amounts) stay exact as bigints.
    table = parse(text, {integersAsBigInt: "asNeeded"});
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    // smol-toml's message is "Invalid TOML document: <reason>" and its code block; line and column are 1-based.
    const reason = (e.message.split("\n")[0] ?? e.message).replace(/^Invalid TOML document: /, "");
    const {line, column} = e;
    throw new ConfigError({
      code: ConfigErrorCode.TOML_SYNTAX,
      path,
      line,
      column,
      reason,
      excerpt: e.codeblock.trimEnd(),
    });
  }
  const values: Values = new Map();
  collect(table, "", path, values);
  return values;
}

function collect(table: OptionTree, prefix: string, source: string, out: Values): void {
  for (const [name, raw] of Object.entries(table)) {
    const key = prefix + name;
    const spec = configKey(key);
    if (spec) {
      out.set(key, parseValue(key, spec.kind, raw, source, true));
    } else if (isTable(raw) && isTablePrefix(key)) {
      collect(raw, `${key}.`, source, out);
    } else {
      throw new ConfigError({code: ConfigErrorCode.UNKNOWN_KEY, key, source, validKeys: keysUnder(prefix)});
    }
  }
}

function parseFlags(flags: ReadonlyMap<string, string | boolean>): Values {
  const values: Values = new Map();
  for (const [key, raw] of flags) {
    const spec = configKey(key);
    if (!spec) {
      throw new ConfigError({code: ConfigErrorCode.UNKNOWN_KEY, key, source: "flag", validKeys: keysUnder("")});
    }
    values.set(key, parseValue(key, spec.kind, raw, flagName(spec)));
  }
  return values;
}

/** The command-line flag of a key: `--` and the key, except where the schema names another. */
export function flagName(spec: ConfigKey): string {
  return spec.flag ?? `--${spec.key}`;
}

function toTree(values: Values): OptionTree {
  const tree: OptionTree = {};
  for (const [key, value] of values) setPath(tree, key, value);
  return tree;
}

function isTablePrefix(key: string): boolean {
  return CONFIG_KEYS.some((k) => k.key.startsWith(`${key}.`));
}

/** The names directly under `prefix` (a key or a table), as the error lists them. */
function keysUnder(prefix: string): string[] {
  const names = CONFIG_KEYS.filter((k) => k.key.startsWith(prefix)).map((k) => k.key.slice(prefix.length));
  return [...new Set(names.map((n) => n.split(".")[0] as string))];
}

/** `bridge.genesisFederationPublicKeys`: regtest and custom only, never on a fork, valid keys. */
function checkBridgeOverride(options: NodeOptions): void {
  const keys = options.bridge.genesisFederationPublicKeys;
  if (keys.length === 0) return;
  const key = "bridge.genesisFederationPublicKeys";
  if (isForkMode(options)) {
    throw new ConfigError({
      code: ConfigErrorCode.CONFLICT,
      key,
      reason: "the Bridge does not run on a fork (docs/forking.md §6)",
    });
  }
  try {
    withGenesisFederationKeys({...getChainspec("regtest").params, name: options.network}, keys);
  } catch (e) {
    if (!(e instanceof BridgeConfigError)) throw e;
    throw new ConfigError({code: ConfigErrorCode.CONFLICT, key, reason: e.message});
  }
}

function checkConsistency(options: NodeOptions): void {
  checkBridgeOverride(options);
  if (options.network === "custom" && options.genesisFile === undefined) {
    throw new ConfigError({
      code: ConfigErrorCode.CONFLICT,
      key: "genesisFile",
      reason: "network custom needs a genesis file",
    });
  }
  if (options.network !== "custom" && options.genesisFile !== undefined) {
    throw new ConfigError({
      code: ConfigErrorCode.CONFLICT,
      key: "genesisFile",
      reason: `a genesis file is only for network custom (network is ${options.network})`,
    });
  }
  if (options.miner.enabled && !options.miner.server.enabled) {
    throw new ConfigError({
      code: ConfigErrorCode.CONFLICT,
      key: "miner.server.enabled",
      reason:
        "the built-in miner (miner.enabled, on by default on regtest) mines through the work server: set miner.enabled = false too (--miner.enabled false)",
    });
  }
  if (options.wallet.enabled && options.network !== "regtest") {
    throw new ConfigError({
      code: ConfigErrorCode.CONFLICT,
      key: "wallet.enabled",
      reason: `the development wallet (the cow accounts) exists only on regtest (network is ${options.network})`,
    });
  }
}
