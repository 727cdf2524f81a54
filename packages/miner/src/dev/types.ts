/**
 * The groups of development controls beyond `evm_*` (docs/rpc.md §4.10), each a small interface: mining and
 * the pool, time, the block environment, the state, snapshots and dumps. `MinerApi.devControls()` hands them
 * out where the miner's `devControls` option is on.
 */
import type {ForkAnchor} from "@xchain/chain";
import type {ForkAncestry} from "@xchain/execution";
import type {DumpedAccount, StateDump} from "@xchain/state";

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

/**
 * anvil's and Hardhat's state controls (`anvil_setBalance`…, docs/rpc.md §4.10 "State"): each edits the
 * head's state at once (`Chain.editHeadState`), visible to `latest` and `pending` reads and carried by the
 * next block mined. Addresses are 20 bytes, slots and storage values 32.
 */
export interface StateControls {
  setBalance(address: Uint8Array, balance: bigint): Promise<void>;
  /** The balance plus `amount`, capped at 2^256 − 1 (anvil's). */
  addBalance(address: Uint8Array, amount: bigint): Promise<void>;
  setCode(address: Uint8Array, code: Uint8Array): Promise<void>;
  setNonce(address: Uint8Array, nonce: bigint): Promise<void>;
  setStorageAt(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void>;
  /**
   * Sets `holder`'s balance of the ERC-20 `token` in the token's storage, at the slot its `balanceOf`
   * reads (found by probing, as anvil does); NOT_ALLOWED naming the token when no slot is found.
   */
  dealErc20(holder: Uint8Array, token: Uint8Array, balance: bigint): Promise<void>;
  /** Sets `owner`'s allowance to `spender` of the ERC-20 `token`, found through `allowance` likewise. */
  setErc20Allowance(owner: Uint8Array, spender: Uint8Array, token: Uint8Array, amount: bigint): Promise<void>;
}

/**
 * The chain controls (docs/rpc.md §4.10 "Snapshots, reset, dump and load", `dev/chainControls.ts`) */
export interface ChainControls {
  /** The largest state dump, in bytes of JSON, written or loaded (the miner's `dumpStateMaxBytes`). */
  readonly dumpMaxBytes: number;
  /** `evm_snapshot`: remembers the head, its state, the pool and the clock; returns the id (1, 2, …). */
  snapshot(): number;
  /**
   * `evm_revert`: back to snapshot `id`'s head, state, pool and clock, forgetting that snapshot and every
   * later one; false for an unknown id. Pool transactions that arrived after the snapshot are dropped.
   */
  revert(id: number): Promise<boolean>;
  /**
   * `evm_reset`/`anvil_reset`: back to genesis and its state (on a forked chain, to the fork anchor and
   * R₀: `Chain.initialStateRoot`), an empty pool, no clock shift, no snapshot.
   */
  reset(): Promise<void>;
  /**
   * `anvil_reset` with `forking` on a forked chain: `Chain.reanchor` onto `anchor` (built over the
   * new base, which the caller installed first), then as `reset`: an empty pool, no clock shift, no
   * snapshot. NOT_ALLOWED on a chain from a genesis (nothing changes).
   */
  reanchor(anchor: ForkAnchor, ancestry: ForkAncestry): Promise<void>;
  /** `anvil_dumpState`: the head's state by address and slot, as far as recorded preimages name it. */
  dumpState(): Promise<StateDump>;
  /**
   * `anvil_loadState`: writes the accounts into the head's state in one edit, as anvil loads them:
   * balance and code replaced, the nonce raised to the dumped one, the listed slots set (others kept).
   * The REMASC sender (the zero address) keeps its nonce: it counts this chain's blocks.
   */
  loadState(accounts: readonly DumpedAccount[]): Promise<void>;
}

/** Every group of controls (`MinerApi.devControls()`). */
export interface MinerDevControls {
  readonly state: StateControls;
  readonly chain: ChainControls;
  readonly mining: MiningControls;
  readonly time: TimeControls;
  readonly environment: EnvironmentControls;
}
