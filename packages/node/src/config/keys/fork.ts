/** The `[fork]` table: fork mode (docs/forking.md §4), a local regtest chain over an upstream's state. */
import {MAX_CHAIN_ID} from "@xchain/primitives";
import type {ConfigKey} from "../configKey.ts";

/** The keys of fork mode; every one but `fork.url` is about a fork, so it needs `fork.url`. */
export const forkKeys: readonly ConfigKey[] = [
  {
    key: "fork.url",
    kind: {type: "string"},
    placeholder: "url",
    optional: true,
    description:
      "fork mode: a local regtest chain over this upstream's state at fork.block (JSON-RPC over HTTP: xchain, rskj, geth, anvil); unset, no fork",
  },
  {
    key: "fork.block",
    kind: {type: "string"},
    placeholder: "number|hash",
    optional: true,
    description:
      "the upstream block forked: a decimal number or a 0x-prefixed 32-byte hash; unset, the upstream's head minus fork.safeDepth (on a restart, the block the data directory forked)",
  },
  {
    key: "fork.chainId",
    kind: {type: "integer", min: 1, max: MAX_CHAIN_ID},
    optional: true,
    description: "the chain id the fork signs and answers eth_chainId with; unset, the upstream's",
  },
  {
    key: "fork.offline",
    kind: {type: "boolean"},
    description:
      "no request to the upstream: everything from the fork cache, a value it lacks is an error naming it (a restart of a fork run online before)",
  },
  {
    key: "fork.verify",
    kind: {type: "string", choices: ["auto", "on", "off"]},
    description:
      "check the upstream's accounts and slots against the fork block's state root (eth_getProof): auto when the upstream serves proofs, on refuses one that does not (rskj), off never",
  },
  {
    key: "fork.requestsPerSecond",
    kind: {type: "integer", min: 0, max: 100_000},
    optional: true,
    description:
      "most calls a second sent to the upstream (a batch of n counts n); 0 = no limit; unset, no limit for an upstream on loopback (localhost, 127.0.0.0/8, ::1), 100 for any other",
  },
  {
    key: "fork.retries",
    kind: {type: "integer", min: 0, max: 20},
    description:
      "retries of an upstream call that failed transiently (connection error, timeout, HTTP 429 or 5xx, -32005), after 250 ms doubling to 8 s",
  },
  {
    key: "fork.timeoutMs",
    kind: {type: "integer", min: 100, max: 600_000},
    placeholder: "ms",
    description: "how long one request to the upstream may take before it counts as a transient failure, in ms",
  },
  {
    key: "fork.safeDepth",
    kind: {type: "integer", min: 0, max: 10_000},
    description: "without fork.block, how many blocks below the upstream's head the fork block is",
  },
  {
    key: "fork.cacheDir",
    kind: {type: "path"},
    placeholder: "dir",
    optional: true,
    description:
      "the disk cache of what was read from the upstream (a LevelDB of its own, kept by chain id and fork block); unset, <datadir>/fork-cache",
  },
];
