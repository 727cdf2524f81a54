/**
 * The groups of development controls beyond `evm_*` (docs/rpc.md §4.10), each a small interface: mining and
 * the pool, time, the block environment. `MinerApi.devControls()` hands them out where the miner's `devControls`
 * option is on.
 */

/** Mining and the pool (docs/rpc.md §4.10 "Mining and the pool"). */
export interface MiningControls {
  /**
   * Mines `blocks` blocks now, one after the other (anvil_mine, hardhat_mine); with `intervalSeconds` > 0 each
   * after the first is that many seconds after the one before. At most `maxBlocksPerMine`; stops early
   * when `signal` aborts. Returns how many were mined.
   */
  mine(blocks: number, intervalSeconds: number, signal?: AbortSignal): Promise<number>;
  /** Whether each transaction is mined as it arrives (anvil_getAutomine). */
  automine(): boolean;
  /** evm_setAutomine: on, the miner runs and mines each transaction as it arrives (and what is pending now). */
  setAutomine(enabled: boolean): void;
  /** The interval of empty blocks in seconds, null when off (anvil_getIntervalMining). */
  intervalMining(): number | null;
  /** evm_setIntervalMining: a block every `seconds` (0 = off); starts the miner when it is stopped. */
  setIntervalMining(seconds: number): void;
  /** Removes a pool transaction; false when the pool does not hold it. */
  dropTransaction(hash: Uint8Array): Promise<boolean>;
  /** Empties the pool; returns how many transactions it removed. */
  dropAllTransactions(): Promise<number>;
  /** Removes every pool transaction of `sender`; returns how many. */
  removePoolTransactions(sender: Uint8Array): Promise<number>;
}

/** Time (docs/rpc.md §4.10 "Time"). */
export interface TimeControls {
  /** evm_setNextBlockTimestamp: the next block carries `timestamp` (after the head's, at most 2^32 − 1). */
  setNextBlockTimestamp(timestamp: number): void;
  /** anvil_setTime: now becomes `timestamp`; returns the seconds it moved forward (0 when back). */
  setTime(timestamp: number): number;
  /** anvil_setBlockTimestampInterval: each block `seconds` (≥ 1) after its parent, the wall clock ignored. */
  setBlockTimestampInterval(seconds: number): void;
  /** anvil_removeBlockTimestampInterval: false when none was set. */
  removeBlockTimestampInterval(): boolean;
}

/** What the environment is now (anvil_nodeInfo, anvil_metadata). */
export interface EnvironmentSettings {
  coinbase: Uint8Array;
  /** The minimumGasPrice the blocks move toward. */
  minGasPriceInWei: bigint;
  /** The gas limit the blocks move toward. */
  targetGasLimit: bigint;
  /** 32 random bytes drawn when the miner started (anvil's and Hardhat's `instanceId`). */
  instanceId: Uint8Array;
}

/** The block environment (docs/rpc.md §4.10 "Environment"); each takes effect from the next template. */
export interface EnvironmentControls {
  setCoinbase(address: Uint8Array): void;
  /** The minimumGasPrice the blocks move toward, one band step per block (docs/protocol/fees.md §1.2). */
  setMinGasPrice(wei: bigint): void;
  /**
   * The next block's gas limit when it lies in the parent's band (docs/protocol/fees.md §1.4), else the target
   * the blocks step toward; NOT_ALLOWED below the network's minimum.
   */
  setBlockGasLimit(gasLimit: bigint): void;
  settings(): EnvironmentSettings;
}

/** Every group of controls (`MinerApi.devControls()`). */
export interface MinerDevControls {
  readonly mining: MiningControls;
  readonly time: TimeControls;
  readonly environment: EnvironmentControls;
}
