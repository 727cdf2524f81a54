/**
 * Every configuration key: its dotted name (the TOML table path and the flag), type and meaning.
 * Defaults are not repeated here: they come from `defaultNodeOptions` and the network presets.
 */
import type {ConfigKey} from "./configKey.ts";
import {bridgeKeys} from "./keys/bridge.ts";
import {chainKeys} from "./keys/chain.ts";
import {forkKeys} from "./keys/fork.ts";
import {metricsKeys} from "./keys/metrics.ts";
import {minerKeys} from "./keys/miner.ts";
import {nodeKeys} from "./keys/node.ts";
import {p2pKeys} from "./keys/p2p.ts";
import {rpcKeys} from "./keys/rpc.ts";
import {txpoolKeys} from "./keys/txpool.ts";
import {unsafeKeys} from "./keys/unsafe.ts";

/** Every key, in the order the reference file and docs/config.md list them. */
export const CONFIG_KEYS: readonly ConfigKey[] = [
  ...nodeKeys,
  ...chainKeys,
  ...forkKeys,
  ...bridgeKeys,
  ...txpoolKeys,
  ...minerKeys,
  ...rpcKeys,
  ...p2pKeys,
  ...metricsKeys,
  ...unsafeKeys,
];

const byKey = new Map(CONFIG_KEYS.map((k) => [k.key, k]));

/** The key named `key`, if there is one. */
export function configKey(key: string): ConfigKey | undefined {
  return byKey.get(key);
}
