/**
 * The contract of the chain package: what RPC, the txpool, the miner and sync read from
 * the chain, and the events they react to. `Chain` implements it over a `KeyValueStore`.
 */
import type {BlockExecutionResult, ExecutionBlockContext, ForkAncestry, TransactionOutcome} from "@xchain/execution";
import type {Block, BlockHeader, Log, Receipt, Transaction} from "@xchain/primitives";
import type {StateEditor, StateError, StateReader} from "@xchain/state";
import type {NodeError} from "@xchain/utils";
import type {ForkAnchor} from "./fork/anchor.ts";

/** rskj's import results (docs/protocol/mining-rpc.md §3 names them on the wire). */
export enum ImportResultKind {
  IMPORTED_BEST = "IMPORTED_BEST",
  IMPORTED_NOT_BEST = "IMPORTED_NOT_BEST",
  EXIST = "EXIST",
  NO_PARENT = "NO_PARENT",
  INVALID_BLOCK = "INVALID_BLOCK",
  /**
   * The block passed the rules that need no state, but its parent's state is older than the retention
   * window and was pruned, so it cannot be executed: not stored (docs/operations.md §12). The block is
   * not known to be invalid: its branch forks from the canonical chain deeper than a pruned node follows.
   */
  PARENT_STATE_PRUNED = "PARENT_STATE_PRUNED",
}

export type ImportResult =
  | {kind: ImportResultKind.IMPORTED_BEST | ImportResultKind.IMPORTED_NOT_BEST; hash: Uint8Array; number: number}
  | {kind: ImportResultKind.EXIST; hash: Uint8Array; number: number}
  | {kind: ImportResultKind.NO_PARENT; hash: Uint8Array; number: number; parentHash: Uint8Array}
  | {kind: ImportResultKind.INVALID_BLOCK; hash?: Uint8Array; number?: number; error: NodeError<{code: string}>}
  | {kind: ImportResultKind.PARENT_STATE_PRUNED; hash: Uint8Array; number: number; error: StateError};

/** The best block. */
export interface ChainHead {
  header: BlockHeader;
  hash: Uint8Array;
  number: number;
  totalDifficulty: bigint;
}

/** Where a transaction was included on the canonical chain. */
export interface TransactionLocation {
  blockHash: Uint8Array;
  blockNumber: number;
  index: number;
}

/** A log with the context RPC shows (`eth_getLogs`, receipts). */
export interface LogWithContext {
  readonly log: Log;
  readonly blockHash: Uint8Array;
  readonly blockNumber: number;
  readonly transactionHash: Uint8Array;
  readonly transactionIndex: number;
  /** Index of the log within its block. */
  readonly logIndex: number;
  /** true when the log left the canonical chain in a reorganization. */
  readonly removed: boolean;
}

/** A log query over canonical blocks (docs/rpc.md §4.5): topics by position, each null (any), one value or a set. */
export interface LogFilter {
  fromBlock: number;
  toBlock: number;
  addresses?: Uint8Array[];
  topics?: (Uint8Array | Uint8Array[] | null)[];
}

/** How a caller steers a log query while it runs. */
export interface LogQueryControl {
  /** Checked between blocks: once aborted the query stops and throws the signal's reason. */
  signal?: AbortSignal;
  /** Called with each matching log, in chain order, before it is kept; a throw stops the query. */
  onLog?(entry: LogWithContext): void;
}

/** Read access to the chain. */
export interface ChainReader {
  head(): ChainHead;
  /**
   * On a forked chain, the fork it extends now (`Chain.reanchor` may change it); undefined for a
   * chain from a genesis. Every execution on the chain (import, the miner's assembly, calls, traces)
   * reads BLOCKHASH at or below the anchor from its `ancestry` and pays no REMASC matured block at
   * or below it (docs/forking.md §3).
   */
  readonly fork: ChainFork | undefined;
  getHeader(hash: Uint8Array): Promise<BlockHeader | undefined>;
  /** The canonical header at `number`. */
  getHeaderByNumber(number: number): Promise<BlockHeader | undefined>;
  getBlock(hash: Uint8Array): Promise<Block | undefined>;
  getBlockByNumber(number: number): Promise<Block | undefined>;
  getReceipts(blockHash: Uint8Array): Promise<Receipt[] | undefined>;
  getTotalDifficulty(blockHash: Uint8Array): Promise<bigint | undefined>;
  getTransactionLocation(txHash: Uint8Array): Promise<TransactionLocation | undefined>;
  /** Canonical logs matching the filter, in chain order. */
  getLogs(filter: LogFilter, control?: LogQueryControl): Promise<LogWithContext[]>;
  /**
   * The state after the block with this hash; on a pruned node, STATE_PRUNED for a block older than
   * the retention window (docs/operations.md §12).
   */
  stateAt(blockHash: Uint8Array): Promise<StateReader>;
  /** The state after a stored block whose header the caller holds (no lookup of the header). */
  stateAfter(header: BlockHeader): Promise<StateReader>;
  /**
   * The root of the state after the block `header`: its dev state override when a dev control edited
   * that state (`Chain.editHeadState`), else `header.stateRoot`. Every read of "the state after block X"
   * and every block built on X starts from it (docs/architecture.md, "Dev state edits").
   */
  stateRootAfter(header: BlockHeader): Uint8Array;
}

/** The fork a forked chain extends: its anchor (block F and R₀) and the upstream's hashes at and below F. */
export interface ChainFork {
  anchor: ForkAnchor;
  ancestry: ForkAncestry;
}

/**
 * The head's state as a dev control edits it (`Chain.editHeadState`): getAccount, setBalance, setNonce,
 * setCode, getStorage and setStorage by address (20 bytes) and slot (32 bytes); reads see the edit's own
 * writes, and nothing is stored until the edit returns.
 */
export type HeadStateEditor = StateEditor;

/** The head's state was edited by a dev control, or `Chain.setHead` restored another state root. */
export interface StateEditedEvent {
  head: ChainHead;
  /** The state root after the head now. */
  stateRoot: Uint8Array;
}

/** A new best block, and what changed on the canonical chain to reach it. */
export interface NewHeadEvent {
  head: ChainHead;
  /**
   * Blocks that joined the canonical chain, oldest first (just the new block when no reorg
   * happened; empty when `Chain.setHead` moved the head back to one of its canonical ancestors).
   */
  added: Block[];
  /** Blocks that left the canonical chain, newest first (empty when no reorg happened). */
  removed: Block[];
  /** Logs of the removed blocks, marked `removed: true`, in chain order (oldest block first). */
  removedLogs: LogWithContext[];
  /** Logs of the added blocks, in chain order. */
  addedLogs: LogWithContext[];
  /**
   * Transactions of removed blocks that are not in any added block, oldest block first (the txpool
   * re-admits them); REMASC transactions are left out. Always empty after `Chain.setHead`, which
   * discards them (rskj's evm_revert).
   */
  droppedTransactions: Transaction[];
  /** Milliseconds the import of the new head took (validation, execution, write); absent after `Chain.setHead`. */
  importMs?: number;
  /**
   * What the new head's transactions did (the REMASC transaction last), from the execution this import
   * ran: revert payloads included, which receipts do not keep; absent after `Chain.setHead`.
   */
  headOutcomes?: readonly TransactionOutcome[];
}

/**
 * A block's execution the node computed itself (its miner's assembly of the block), offered to the
 * import of that block: taken instead of executing the block again only when it ran exactly the
 * block's transactions, in the block's context, on the parent and the state the import would run
 * them on (import/localExecution.ts). Every other rule is checked as for any block.
 */
export interface LocalExecution {
  /** The block it ran after: BLOCKHASH and the REMASC matured block were read from its chain. */
  parentHash: Uint8Array;
  /** The state root it ran on. */
  parentStateRoot: Uint8Array;
  block: ExecutionBlockContext;
  /** The transactions it ran, in order, the REMASC transaction last. */
  transactions: readonly Transaction[];
  result: BlockExecutionResult;
}

/** An import's result and how long the import itself took, queue wait excluded. */
export interface ImportEvent {
  result: ImportResult;
  durationMs: number;
}

/** The events the txpool, filters, subscriptions and the node's metrics and logs listen to. */
export interface ChainEvents {
  /** After every import, whatever its result (the node's metrics). */
  import: [ImportEvent];
  newHead: [NewHeadEvent];
  /** The state after the head changed without a new block (dev controls): state read at the head must be read again. */
  stateEdited: [StateEditedEvent];
}
