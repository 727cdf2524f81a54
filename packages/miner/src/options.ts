/** The miner's options and their per-network defaults (the node's `[miner]` table mirrors them). */
import type {Chainspec} from "@xchain/chainspec";
import {hexToBytes} from "@xchain/utils";

/** Everything the miner can be told; start from `defaultMinerOptions(chainspec)`. */
export interface MinerOptions {
  /** The built-in CPU merge-miner runs from start-up (`eth_mining`); evm_startMining/evm_stopMining toggle it. */
  enabled: boolean;
  /**
   * rskj's `miner.server`. `enabled`: the node mines, serving merged-mining work and taking solutions
   * (mnr_*, eth_getWork, eth_submitWork) and mining blocks for the built-in miner and the dev controls.
   * Off (a follower: docs/operations.md §10), every one of them answers MINING_DISABLED and the node
   * makes no block of its own; `enabled` must then be off too.
   */
  server: {enabled: boolean};
  /** 20-byte address of the blocks' coinbase (REMASC pays it the miner's share of its blocks' fees, docs/protocol/native-contracts.md §11.1). */
  coinbase: Uint8Array;
  /**
   * The minimumGasPrice the blocks move toward, one band step per block (docs/protocol/fees.md §1, rskj
   * `miner.minGasPrice`).
   */
  minGasPriceInWei: bigint;
  /** The gas limit the blocks move toward (docs/protocol/fees.md §1, rskj `targetgaslimit`). */
  targetGasLimit: bigint;
  /** Move toward the target regardless of the parent's gas used (rskj `forcegaslimit`, default true). */
  forceTargetGasLimit: boolean;
  /** With the built-in miner running: a block every this many milliseconds, even empty; 0 = off. */
  blockTimeMs: number;
  /** With the built-in miner running: a block as soon as transactions are pending, until none is left. */
  autoMine: boolean;
  /**
   * With autoMine: a block is started the moment a transaction is pending, without waiting
   * `pendingDebounceMs` (those arriving meanwhile go in the next block), and eth_sendRawTransaction
   * answers once its transaction is mined (anvil's and rskj regtest's automine).
   */
  instant: boolean;
  /** How many recent templates a submission can still solve (docs/protocol/mining-rpc.md §2: 20). */
  workCacheSize: number;
  /** The template is rebuilt at least this often, in milliseconds (docs/protocol/mining-rpc.md §2: 60 s). */
  rebuildIntervalMs: number;
  /**
   * New pending transactions are coalesced for this long before the template is rebuilt or mined:
   * at most one rebuild per period for them (a full template executes a block's transactions).
   */
  pendingDebounceMs: number;
  /** Minimum time between two external submissions (mnr_*, eth_submitWork), in milliseconds; 0 = off. */
  submissionRateLimitMs: number;
  /** anvil_dumpState refuses a dump larger than this, in bytes of JSON before compression (docs/rpc.md §4.10). */
  dumpStateMaxBytes: number;
  /** Whether the `evm_*` controls work (regtest). */
  devControls: boolean;
  /**
   * The most blocks one anvil_mine / hardhat_mine / evm_mine call mines (docs/rpc.md §4.10): each is a whole
   * block, 5 to 15 ms apiece, so 1,000 answer within the 10 to 20 s clients wait.
   */
  maxBlocksPerMine: number;
  /**
   * Serve work (`mnr_getWork`, `eth_getWork`) even when the node's `notSyncedReason` module says it
   * is not synced: mining alone on purpose (the first miners of a new network, docs/running-a-network.md).
   */
  allowSolo: boolean;
  /** eth_hashrate averages over this window, and forgets eth_submitHashrate reports older than it. */
  hashrateWindowMs: number;
}

/**
 * The regtest miner's coinbase: keccak-256 of `regtest_miner_secret_please_change` as private key
 * (docs/protocol/networks.md §3).
 */
export const REGTEST_MINER_COINBASE: Uint8Array = hexToBytes("ec4ddeb4380ad69b3e509baad9f158cdf4e4681d");

/** rskj's testnet default for `miner.server.workSubmissionRateLimitInMills` (docs/protocol/mining-rpc.md §3). */
const TESTNET_SUBMISSION_RATE_LIMIT_MS = 10_000;

/**
 * The defaults of a network: on regtest the built-in miner runs, mines each transaction the moment
 * it is pending (instant), and the evm_* controls work; elsewhere the node only serves work to miners (the
 * coinbase must then be configured: the default zero address would receive the fees).
 */
export function defaultMinerOptions(chainspec: Chainspec): MinerOptions {
  const {name, targetGasLimit} = chainspec.params;
  // A fork runs regtest's rules and is a developer's own chain, mined and controlled like regtest.
  const regtest = name === "regtest" || name === "fork";
  return {
    enabled: regtest,
    server: {enabled: true},
    coinbase: regtest ? REGTEST_MINER_COINBASE : new Uint8Array(20),
    minGasPriceInWei: 0n,
    targetGasLimit,
    forceTargetGasLimit: true,
    blockTimeMs: 0,
    autoMine: true,
    instant: regtest,
    workCacheSize: 20,
    rebuildIntervalMs: 60_000,
    pendingDebounceMs: regtest ? 20 : 1_000,
    submissionRateLimitMs: name === "testnet" ? TESTNET_SUBMISSION_RATE_LIMIT_MS : 0,
    dumpStateMaxBytes: 64 * 1024 * 1024,
    devControls: regtest,
    maxBlocksPerMine: 1_000,
    allowSolo: false,
    hashrateWindowMs: 60_000,
  };
}
