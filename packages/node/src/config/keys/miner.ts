/** The `[miner]` table: `MinerOptions` of @xchain/miner (defaults per network: `defaultMinerOptions`). */
import type {ConfigKey} from "../configKey.ts";
import type {ValueKind} from "../values.ts";

const MS: ValueKind = {type: "integer", min: 0, max: 24 * 60 * 60 * 1000};

/** Templates, the built-in merge-miner and the work served to external miners. */
export const minerKeys: readonly ConfigKey[] = [
  {
    key: "miner.enabled",
    kind: {type: "boolean"},
    description:
      "run the built-in CPU merge-miner (regtest); work is served to external miners (mnr_*) either way while miner.server.enabled",
  },
  {
    key: "miner.coinbase",
    kind: {type: "address"},
    placeholder: "address",
    description: "address that receives the fees of mined blocks (set it on mainnet and testnet)",
  },
  {
    key: "miner.minGasPriceInWei",
    kind: {type: "bigint"},
    placeholder: "wei",
    description: "minimumGasPrice the blocks move toward, one band step per block",
  },
  {
    key: "miner.targetGasLimit",
    kind: {type: "bigint"},
    placeholder: "gas",
    description: "gas limit the blocks move toward",
  },
  {
    key: "miner.forceTargetGasLimit",
    kind: {type: "boolean"},
    description: "move toward the target gas limit whatever the parent's gas used",
  },
  {
    key: "miner.blockTimeMs",
    kind: MS,
    placeholder: "ms",
    description: "with the built-in miner: a block every this many milliseconds, even empty (0: off)",
  },
  {
    key: "miner.autoMine",
    kind: {type: "boolean"},
    description: "with the built-in miner: a block as soon as transactions are pending",
  },
  {
    key: "miner.instant",
    kind: {type: "boolean"},
    description:
      "with autoMine: start a block the moment a transaction is pending (no debounce) and answer eth_sendRawTransaction once it is mined",
  },
  {
    key: "miner.workCacheSize",
    kind: {type: "integer", min: 1, max: 1000},
    description: "how many recent templates a submission can still solve",
  },
  {
    key: "miner.rebuildIntervalMs",
    kind: {type: "integer", min: 1, max: 24 * 60 * 60 * 1000},
    placeholder: "ms",
    description: "the template is rebuilt at least this often",
  },
  {
    key: "miner.pendingDebounceMs",
    kind: MS,
    placeholder: "ms",
    description: "new pending transactions are gathered this long before the template is rebuilt or mined",
  },
  {
    key: "miner.submissionRateLimitMs",
    kind: MS,
    placeholder: "ms",
    description: "minimum time between two external submissions (mnr_*, eth_submitWork); 0: no limit",
  },
  {key: "miner.devControls", kind: {type: "boolean"}, description: "whether the evm_* controls work"},
  {
    key: "miner.dumpStateMaxBytes",
    kind: {type: "integer", min: 1, max: 2 ** 31 - 1},
    placeholder: "bytes",
    description:
      "the largest state anvil_dumpState writes and anvil_loadState reads, in bytes of JSON before compression (docs/rpc.md §4.10)",
  },
  {
    key: "miner.maxBlocksPerMine",
    kind: {type: "integer", min: 1, max: 1_000_000},
    placeholder: "blocks",
    description: "most blocks one anvil_mine, hardhat_mine or evm_mine call mines (each a whole block, 5 to 15 ms)",
  },
  {
    key: "miner.allowSolo",
    kind: {type: "boolean"},
    description:
      "mainnet and testnet: serve work (mnr_getWork, eth_getWork) before the node has seen a peer or while it is behind (mine alone)",
  },
  {
    key: "miner.hashrateWindowMs",
    kind: {type: "integer", min: 1, max: 24 * 60 * 60 * 1000},
    placeholder: "ms",
    description: "eth_hashrate averages over this window",
  },
  {
    key: "miner.server.enabled",
    kind: {type: "boolean"},
    description:
      "mine: serve merged-mining work and take solutions (mnr_*, eth_getWork, eth_submitWork), mine blocks for evm_mine and the built-in miner; false on a follower, whose every such request then answers that mining is disabled (needs miner.enabled = false)",
  },
];
