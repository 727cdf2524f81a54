/**
 * The contract of the execution package. The chain package and the test chain builder
 * are written against these types; `BlockExecutor` implements them on @ethereumjs/evm configured
 * with rskj's gas schedule (docs/protocol/gas.md).
 */
import type {BatchOp} from "@xchain/db";
import type {BlockHeader, Log, Receipt, Transaction} from "@xchain/primitives";
import type {ForkError} from "@xchain/state";
import type {NativeContractUnavailableError, TransactionInvalidError} from "./errors.ts";
import type {RemascAncestry} from "./native/remasc/ancestry.ts";

/** The fields of the block being executed that execution reads (known before the block is sealed). */
export interface ExecutionBlockContext {
  number: number;
  timestamp: number;
  coinbase: Uint8Array;
  difficulty: bigint;
  gasLimit: bigint;
  /** BASEFEE returns it (RSKIP-412); every non-REMASC transaction must pay at least it. */
  minimumGasPrice: bigint;
}

/** What execution needs to know about the chain the block extends. */
export interface ExecutionChainView {
  /** Hash of the ancestor at `number` (BLOCKHASH: the 256 most recent), undefined when out of range. */
  blockHash(number: number): Promise<Uint8Array | undefined>;
  /**
   * The blocks this block's REMASC transaction reads (`remascAncestry`: block `number − maturity` and
   * its siblings), or undefined when it processes none: before maturity, on a fork at or below the fork
   * block, and in a call, which runs no REMASC transaction.
   */
  remasc: RemascAncestry | undefined;
  /**
   * On a forked chain, the upstream's hashes at and below the fork block: BLOCKHASH of such a height
   * asks it instead of `blockHash`. Carried by the view (not by the executor) so that every block,
   * call and trace reads the chain's current fork, which `Chain.reanchor` can change.
   */
  forkAncestry?: ForkAncestry | undefined;
  /** The block's own chain as the BlockHeader native contract reads it (docs/protocol/native-contracts.md §3). */
  headers: ChainHeaders;
}

/**
 * The headers, uncles and total difficulties of the chain a block extends: what the BlockHeader native
 * contract answers about the block's ancestors (docs/protocol/native-contracts.md §3).
 */
export interface ChainHeaders {
  /**
   * The executing block's ancestor at height `number` on the block's own chain (whichever branch it is on);
   * undefined at or above the block's own height or when it is not stored.
   */
  headerAt(number: number): Promise<BlockHeader | undefined>;
  /** The uncles the stored block `hash` includes; undefined when its body is not stored. */
  uncles(hash: Uint8Array): Promise<readonly BlockHeader[] | undefined>;
  /** The total difficulty of the chain up to the stored block `hash`; undefined when unknown. */
  totalDifficulty(hash: Uint8Array): Promise<bigint | undefined>;
}

/**
 * The hashes of the blocks at and below a fork block (docs/architecture.md, "The forked chain"): the
 * upstream's, which the forked chain does not store. BLOCKHASH of a height at or below `number` asks
 * it instead of the chain view's `blockHash`, whichever block, call or trace runs (`Chain.fork`).
 */
export interface ForkAncestry {
  /** The fork block's number F. */
  readonly number: number;
  /** The upstream's hash of its block `blockNumber` (at most F), undefined when it has none. */
  hashAt(blockNumber: number): Promise<Uint8Array | undefined>;
}

/** Input of `BlockExecutor.execute`: a block's transactions (the REMASC transaction last) on its parent's state. */
export interface ExecuteBlockInput {
  block: ExecutionBlockContext;
  transactions: readonly Transaction[];
  parentStateRoot: Uint8Array;
  chain: ExecutionChainView;
  /**
   * The transactions' root when the caller has already checked it (import validates the header's
   * against the body first): the result carries it instead of computing it a second time.
   */
  transactionsRoot?: Uint8Array;
}

/** What one transaction did. */
export interface TransactionOutcome {
  transaction: Transaction;
  /** true on success, false on revert or exceptional halt. */
  status: boolean;
  /** Gas charged after refunds. */
  gasUsed: bigint;
  cumulativeGasUsed: bigint;
  /** gasUsed × gasPrice, credited to the REMASC address. */
  fee: bigint;
  logs: Log[];
  /** The created contract's address for a successful creation. */
  contractAddress?: Uint8Array;
  /** The revert payload, when the transaction reverted. */
  revertData?: Uint8Array;
}

/** Everything a header commits to after execution, plus what storage keeps. */
export interface BlockExecutionResult {
  stateRoot: Uint8Array;
  /** Ethereum ordered-trie root of the receipts (docs/protocol/README.md §2: MPT, not rskj's Unitrie). */
  receiptsRoot: Uint8Array;
  /** Ethereum ordered-trie root of the transactions' encodings. */
  transactionsRoot: Uint8Array;
  logsBloom: Uint8Array;
  gasUsed: bigint;
  /** Sum of the fees of the block's transactions (the header's paidFees). */
  paidFees: bigint;
  receipts: Receipt[];
  outcomes: TransactionOutcome[];
  /** The state trie writes, to be written in the same batch as the block. */
  stateWrites: BatchOp[];
}

/** Input of block assembly (miner, test builder): candidates in order; invalid ones are skipped. */
export interface AssembleBlockInput {
  block: ExecutionBlockContext;
  candidates: readonly Transaction[];
  parentStateRoot: Uint8Array;
  chain: ExecutionChainView;
}

/** A block body that executes, with its execution result and the candidates left out (and why). */
export interface AssembledBlock {
  /** The included transactions, the REMASC transaction last. */
  transactions: Transaction[];
  result: BlockExecutionResult;
  /**
   * Invalid candidates, and in fork mode those that reached a native contract (docs/forking.md §6) or needed
   * a value the upstream could not give (§4.3).
   */
  skipped: {
    transaction: Transaction;
    reason: string;
    error: TransactionInvalidError | NativeContractUnavailableError | ForkError;
  }[];
}

/**
 * Input of `BlockExecutor.call`: one message run on the state at `stateRoot` as if in `block`,
 * with nothing kept (eth_call, and the runs a gas estimator searches over). No nonce, balance or
 * gas-price checks; only the intrinsic gas must fit `gasLimit`.
 */
export interface CallInput {
  block: ExecutionBlockContext;
  chain: ExecutionChainView;
  stateRoot: Uint8Array;
  from: Uint8Array;
  /** Undefined for a contract creation. */
  to?: Uint8Array;
  value?: bigint;
  data?: Uint8Array;
  gasLimit: bigint;
  gasPrice?: bigint;
  /**
   * `intrinsicGas({to, data})` when the caller has computed it (eth_estimateGas runs one call at
   * many gas limits): the run takes it instead of computing it again.
   */
  intrinsicGas?: bigint;
  /**
   * The hash of the block `block` extends (its header's parentHash). A call worker, which cannot
   * ask `chain`, reads BLOCKHASH from the stored headers by parent links from it (calls/storedAncestors.ts);
   * a call without it runs in-process.
   */
  parentHash?: Uint8Array;
  /**
   * Stops the call (`ExecutionInterruptedError`) when aborted: its request timed out or its client
   * left. Only `aborted` is read (at the call's preemption points), so a plain flag will do.
   */
  signal?: Pick<AbortSignal, "aborted">;
  /** Accounts changed in the call's own state before it runs (docs/protocol/state-override.md §3). */
  overrides?: StateOverride;
}

/** What a state override sets on one account; each field optional (docs/protocol/state-override.md §2). */
export interface AccountOverride {
  address: Uint8Array;
  balance?: bigint;
  nonce?: bigint;
  code?: Uint8Array;
  /** Replaces the whole storage: every other slot reads zero. [32-byte slot, value] pairs. */
  state?: [Uint8Array, Uint8Array][];
  /** Writes only these slots. [32-byte slot, value] pairs. */
  stateDiff?: [Uint8Array, Uint8Array][];
}

/** The accounts a call overrides. */
export type StateOverride = readonly AccountOverride[];

/** What one message did: a transaction's execution, or a call's. */
export interface CallResult {
  /** true on success, false on revert or exceptional halt. */
  status: boolean;
  /** Gas charged after refunds, intrinsic gas included. */
  gasUsed: bigint;
  /** The refund applied: min(refund counter, gas used / 2); 0 on failure. */
  gasRefund: bigint;
  returnValue: Uint8Array;
  logs: Log[];
  /** The created contract's address for a successful creation. */
  contractAddress?: Uint8Array;
  /** The revert payload, when the message reverted. */
  revertData?: Uint8Array;
  /** The EVM's reason on failure ("revert", "out of gas", …). */
  error?: string;
}
