/** What the miner is built from: the chain it extends, the pool it takes transactions from, block assembly. */
import type {Chain} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import type {BlockExecutor} from "@xchain/execution";
import type {StateCommit, StateSource} from "@xchain/state";
import type {TxPoolApi} from "@xchain/txpool";
import type {Logger} from "@xchain/utils";
import type {StateDumpSource} from "./types.ts";

/**
 * The parts of the chain the miner reads, imports into and moves (`setHead` for evm_revert, `reanchor`
 * for anvil_reset with `forking`); `fork` for the rules of a forked chain (chainReads.ts).
 */
export type MinerChain = Pick<
  Chain,
  | "head"
  | "events"
  | "genesisHash"
  | "fork"
  | "initialStateRoot"
  | "reanchor"
  | "importBlock"
  | "getHeader"
  | "getHeaderByNumber"
  | "getBlock"
  | "getTotalDifficulty"
  | "blockHashesAt"
  | "setHead"
  | "stateRootAfter"
  | "editHeadState"
  | "retainState"
>;

/** Block assembly (`BlockExecutor.assembleBlock`). */
export type BlockAssembler = Pick<BlockExecutor, "assembleBlock">;

/**
 * The pool's side of mining: the ordered executable transactions, news of new ones, its change counter,
 * the dev snapshots of its contents and the dev drops.
 */
export type MinerTxPool = Pick<
  TxPoolApi,
  "pendingForBlock" | "onPending" | "revision" | "snapshot" | "restore" | "drop" | "dropSender" | "dropAll"
>;

/** Where the pending block's state becomes readable without being stored (`StateDatabase.stageUnpersisted`). */
export interface PendingStateSink {
  stageUnpersisted(commit: StateCommit): void;
}

/** The miner's collaborators (its modules). */
export interface MinerModules {
  chain: MinerChain;
  txpool: MinerTxPool;
  /**
   * Assembly on the chain's state. A `BlockExecutor` over a `StateDatabase` of its own (on the same
   * store) keeps the chain's warm state session for imports (state README: warm reuse).
   */
  assembler: BlockAssembler;
  chainspec: Chainspec;
  /** The state the node's RPC reads, where the pending block's state is staged. */
  pendingState: PendingStateSink;
  /** Where anvil_dumpState lists the head's state from (the node's state database); absent, it refuses. */
  stateDumps?: StateDumpSource;
  /** The state the dev controls' ERC-20 probes call on (anvil_dealERC20); absent, those controls refuse. */
  probeState?: StateSource;
  /** Failures of background work (template rebuilds, the built-in miner) go here; default: nowhere. */
  logger?: Logger;
  /** The wall clock in milliseconds; default `Date.now`. */
  now?: () => number;
  /**
   * Why work on the head may be a dead fork (the node has not seen a peer, or is behind); undefined
   * when synced. Work is refused while it answers a reason, unless `allowSolo`. Absent: always served.
   */
  notSyncedReason?: () => string | undefined;
}
