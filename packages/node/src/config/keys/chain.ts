/** The `[chain]` table: `ChainOptions` of @xchain/chain (defaults: `defaultChainOptions`). */
import type {ConfigKey} from "../configKey.ts";
import {CACHE_MIB} from "./node.ts";

/** The chain's caches. */
export const chainKeys: readonly ConfigKey[] = [
  {
    key: "chain.headerCacheSize",
    kind: {type: "integer", min: 1, max: 10_000_000},
    placeholder: "headers",
    description: "decoded block headers kept in memory (imports read the last 449 of the branch)",
  },
  {
    key: "chain.logCacheMb",
    kind: CACHE_MIB,
    placeholder: "MiB",
    description:
      "decoded logs of recently queried blocks kept for eth_getLogs and filters, in MiB (estimated); 0 keeps none",
  },
];
