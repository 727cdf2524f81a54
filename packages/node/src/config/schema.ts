/**
 * Every configuration key: its dotted name (the TOML table path and the flag), type and meaning.
 * Defaults are not repeated here: they come from `defaultNodeOptions` and the network presets.
 */
import {minerKeys} from "./keys/miner.ts";
import {nodeKeys} from "./keys/node.ts";
import {p2pKeys} from "./keys/p2p.ts";
import {rpcKeys} from "./keys/rpc.ts";
import {txpoolKeys} from "./keys/txpool.ts";
import type {ValueKind} from "./values.ts";

/** One key of node.config.toml. */
export interface ConfigKey {
  /** Dotted path, the same in TOML (`[rpc.http] port`) and as a flag (`--rpc.http.port`). */
  key: string;
  kind: ValueKind;
  description: string;
  /** The flag, when it is not `--<key>`. */
  flag?: string;
  /** The flag's placeholder in `--help`. */
  placeholder?: string;
  /** May be left unset (no default value). */
  optional?: boolean;
}

/** Every key, in the order the reference file and docs/config.md list them. */
export const CONFIG_KEYS: readonly ConfigKey[] = [...nodeKeys, ...txpoolKeys, ...minerKeys, ...rpcKeys, ...p2pKeys];

const byKey = new Map(CONFIG_KEYS.map((k) => [k.key, k]));

/** The key named `key`, if there is one. */
export function configKey(key: string): ConfigKey | undefined {
  return byKey.get(key);
}
