/**
 * The contract of the miner package: block templates, merged-mining work and
 * submissions (`mnr_*`, docs/protocol/mining-rpc.md), `eth_getWork`/`eth_submitWork` (docs/mining.md), and
 * the development controls (`evm_*`). `Miner` implements it.
 */
import type {ImportResultKind} from "@xchain/chain";
import type {Block, Receipt} from "@xchain/primitives";
import type {StateDump, StateDumpLimits} from "@xchain/state";
import type {MinerDevControls} from "./dev/types.ts";

/** `mnr_getWork` (docs/protocol/mining-rpc.md §2). */
export interface MergedMiningWork {
  /** The value to embed after `RSKBLOCK:` (fork-detection data included). */
  blockHashForMergedMining: Uint8Array;
  /** 32-byte big-endian floor(2^256 / max(difficulty, 3)). */
  target: Uint8Array;
  feesPaidToMiner: bigint;
  /** True when the parent changed or the fees rose enough since the last answer for this work. */
  notify: boolean;
  parentBlockHash: Uint8Array;
  /** The number of the block being mined (the parent's plus one): xchain's addition, rskj has no such field. */
  height: number;
}

/** A submission that reached import (docs/protocol/mining-rpc.md §3 success object). */
export interface SubmitBlockResult {
  importResult: ImportResultKind;
  blockHash: Uint8Array;
  blockIncludedHeight: number;
}

/**
 * Why a submission failed (-33000 on the wire, docs/protocol/mining-rpc.md §3); `reason` carries the
 * merged-mining or import code.
 */
export enum MinerErrorCode {
  /** No cached work for the hash after the last `RSKBLOCK:` in the coinbase. */
  WORK_NOT_FOUND = "MINER_WORK_NOT_FOUND",
  /** The Bitcoin data does not parse (block, header, coinbase, hashes). */
  BAD_BITCOIN_DATA = "MINER_BAD_BITCOIN_DATA",
  /** The sealed block was rejected: proof of work or any block rule. */
  INVALID_BLOCK = "MINER_INVALID_BLOCK",
  /** Too many submissions (testnet: one per 10 s). */
  RATE_LIMITED = "MINER_RATE_LIMITED",
  /** A development control (evm_*) on a network that does not allow it, or a bad argument to it. */
  NOT_ALLOWED = "MINER_NOT_ALLOWED",
  /** The built-in CPU miner tried every nonce without reaching the target (a difficulty beyond a CPU). */
  NO_SOLUTION = "MINER_NO_SOLUTION",
  /** Work asked for while the node is not synced and `allowSolo` is off. */
  NOT_SYNCED = "MINER_NOT_SYNCED",
  /** Work, a solution or a block asked of a node whose `miner.server.enabled` is off (a follower). */
  MINING_DISABLED = "MINER_MINING_DISABLED",
}

/**
 * The regtest development controls (`evm_*`, docs/protocol/mining-rpc.md §6). Every one throws
 * `MinerError(NOT_ALLOWED)` where the miner's `devControls` option is off (mainnet and testnet by default).
 */
export interface DevControls {
  /** `evm_mine`: build and mine one block now (empty if nothing is pending). */
  mineBlock(): Promise<SubmitBlockResult>;
  /**
   * `evm_increaseTime`: shifts the miner clock by whole seconds (>= 0), counted from the head's timestamp when
   * that is ahead of the clock, so the next block is at least that much after the head (docs/rpc.md §4.7);
   * returns the total shift (the seconds asked for, summed). NOT_ALLOWED
   * when the shifted time would pass the latest block timestamp (2^32 − 1) or the total shift the chain's
   * future limit.
   */
  increaseTime(seconds: number): number;
  /** `evm_startMining` / `evm_stopMining`: the built-in miner (`eth_mining`). */
  startMining(): void;
  stopMining(): void;
}

/** Lists a stored state by address and slot (`StateDatabase.dump`). */
export interface StateDumpSource {
  dump(root: Uint8Array, limits: StateDumpLimits): Promise<StateDump>;
}

/** What RPC needs from the miner. */
export interface MinerApi extends DevControls {
  readonly coinbase: Uint8Array;
  /**
   * The groups of dev controls beyond `evm_*` (docs/rpc.md §4.10); throws `MinerError(NOT_ALLOWED)` where the
   * `devControls` option is off: the one check every group's method goes through.
   */
  devControls(): MinerDevControls;
  getWork(): Promise<MergedMiningWork>;
  submitBitcoinBlock(bitcoinBlock: Uint8Array): Promise<SubmitBlockResult>;
  /** 80-byte header, coinbase (any serialization; a segwit one is stripped), every txid in display order. */
  submitBitcoinBlockTransactions(
    header: Uint8Array,
    coinbase: Uint8Array,
    txids: Uint8Array[],
  ): Promise<SubmitBlockResult>;
  /** 80-byte header, coinbase, merkle branch hashes in internal order, transaction count. */
  submitBitcoinBlockPartialMerkle(
    header: Uint8Array,
    coinbase: Uint8Array,
    branch: Uint8Array[],
    txCount: number,
  ): Promise<SubmitBlockResult>;
  /** `eth_getWork`: [SHA-256 midstate, header tail, target] as docs/mining.md defines them. */
  getEthWork(): Promise<[Uint8Array, Uint8Array, Uint8Array]>;
  /** `eth_submitWork`: true when the solution imported a block. */
  submitEthWork(nonce: Uint8Array, powHash: Uint8Array, mixDigest: Uint8Array): Promise<boolean>;
  /**
   * Under instant mining (`MinerOptions.instant`): resolves once the transaction `hash`, pending
   * since just now, is in a block, or the miner went idle without it, or after a bound of a few
   * blocks; at once for any other transaction or mode.
   */
  whenMined(hash: Uint8Array): Promise<void>;
  /** Whether the built-in miner is running (`eth_mining`). */
  isMining(): boolean;
  /** Hashes per second: the built-in miner's plus those submitted by eth_submitHashrate (recent). */
  hashrate(): bigint;
  submitHashrate(hashesPerSecond: bigint, clientId: Uint8Array): void;
}

/** The pending block (docs/rpc.md §4.3): what this node would mine now on its head. */
export interface PendingBlock {
  /**
   * The block, its header without merged-mining fields. The state at its state root is readable
   * through the state the miner stages it in, though it is not stored.
   */
  block: Block;
  /** One receipt per transaction. */
  receipts: readonly Receipt[];
}

/** Builds the pending block (`Miner`). */
export interface PendingBlockSource {
  /** The pending block on the current head, rebuilt when the head, the pool or the miner clock's shift changed. */
  pendingBlock(): Promise<PendingBlock>;
}
