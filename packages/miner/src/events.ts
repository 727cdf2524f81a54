/**
 * What the miner tells its listeners (`Miner.events`: the node's metrics and logs), as the chain tells
 * `ChainEvents`: work served, external solutions and their outcome, blocks the built-in miner mined.
 */
import type {MinerError} from "./errors.ts";
import type {SubmitBlockResult} from "./types.ts";

/** The RPC methods that serve work to an external miner. */
export type WorkMethod = "mnr_getWork" | "eth_getWork";

/** The RPC methods that take an external miner's solution. */
export type SubmitMethod =
  | "mnr_submitBitcoinBlock"
  | "mnr_submitBitcoinBlockTransactions"
  | "mnr_submitBitcoinBlockPartialMerkle"
  | "eth_submitWork";

/**
 * What became of a solution: it reached import (any import result but an invalid block); it was
 * refused (a `MinerError` such as WORK_NOT_FOUND, RATE_LIMITED or INVALID_BLOCK, or one of
 * eth_submitWork's own checks, which has no error); or it failed on a fault of the node (thrown to the caller).
 */
export type SubmissionOutcome =
  | {kind: "imported"; result: SubmitBlockResult}
  | {kind: "refused"; reason: string; error?: MinerError}
  | {kind: "failed"; error: unknown};

/** An external miner's solution and what became of it. */
export interface SubmissionEvent {
  method: SubmitMethod;
  outcome: SubmissionOutcome;
}

/**
 * What the miner tells its listeners (the node's metrics and logs), as the chain tells `ChainEvents`.
 * Listeners run synchronously inside the call they report and must not throw.
 */
export interface MinerEvents {
  /** Work was served to an external miner (after the answer was built, before it is sent). */
  workServed: [{method: WorkMethod}];
  /** An external solution was imported or refused (after the outcome, before the answer). */
  submission: [SubmissionEvent];
  /** The built-in miner (autoMine, the block interval or evm_mine) sealed a block and imported it. */
  blockMined: [{result: SubmitBlockResult}];
}
