/**
 * Block execution (import) and block assembly (miner, test chain builder) with rskj's gas
 * schedule, over a `StateSource`.
 */
import type {Common} from "@ethereumjs/common";
import type {Chainspec} from "@xchain/chainspec";
import {closingRemascTransaction, createRemascTransaction, type Transaction} from "@xchain/primitives";
import {ForkError, type StateSource} from "@xchain/state";
import {BlockRun} from "./blockRun.ts";
import {CallRunner} from "./calls/callRunner.ts";
import {ProfileCommons} from "./common.ts";
import {
  BlockExecutionError,
  BlockExecutionErrorCode,
  NativeContractUnavailableError,
  TransactionInvalidError,
} from "./errors.ts";
import {gasProfileAt} from "./gas/profile.ts";
import type {BlockExecutorOptions} from "./options.ts";
import {createOpcodeTraceSink, type TraceScope, traceBlock} from "./tracing/traceBlock.ts";
import type {OpcodeTraceSink} from "./tracing/tracedOpcodes.ts";
import type {ExecutionTracer} from "./tracing/types.ts";
import type {
  AssembleBlockInput,
  AssembledBlock,
  BlockExecutionResult,
  CallInput,
  CallResult,
  ExecuteBlockInput,
  ExecutionBlockContext,
  ExecutionChainView,
  TransactionOutcome,
} from "./types.ts";

function atIndex(index: number, error: unknown): unknown {
  if (!(error instanceof TransactionInvalidError)) return error;
  return new BlockExecutionError(
    {code: BlockExecutionErrorCode.INVALID_TRANSACTION, index, reason: error.code},
    `transaction ${index}: ${error.message}`,
    error,
  );
}

/** What a `BlockExecutor` works with (its modules). */
export interface BlockExecutorModules {
  /** The network whose rules and gas schedule apply. */
  chainspec: Chainspec;
  /** The world state blocks run on. */
  state: StateSource;
}

/**
 * Why a candidate stopped in the middle of its execution in fork mode: it reached a native contract, or it
 * needs a value the upstream cannot give (`ForkError`: upstream down, offline cache miss, refused proof).
 */
type CandidateStop = NativeContractUnavailableError | ForkError;

function stopsCandidate(e: unknown): e is CandidateStop {
  return e instanceof NativeContractUnavailableError || e instanceof ForkError;
}

/** One pass of block assembly: the block, or the candidate that stopped (fork mode). */
type AssemblyPass = {block: AssembledBlock} | {stopped: Transaction; error: CandidateStop};

/**
 * Executes and assembles blocks of one network. On a forked chain (a chain view with `forkAncestry`) a
 * message reaching an RSK native contract stops with `NativeContractUnavailableError`: calls and
 * estimates reject with it, assembly skips the transaction with it as reason, and execution of a block
 * holding one fails (docs/forking.md §6).
 */
export class BlockExecutor {
  readonly chainspec: Chainspec;
  private readonly stateSource: StateSource;
  private readonly commons: ProfileCommons;
  private readonly calls: CallRunner;

  constructor(_opts: BlockExecutorOptions, modules: BlockExecutorModules) {
    this.chainspec = modules.chainspec;
    this.stateSource = modules.state;
    this.commons = new ProfileCommons(modules.chainspec);
    this.calls = new CallRunner(modules.chainspec, modules.state, this.commons);
  }

  /** The Common in force at `height` (one per gas profile, reused: docs/dependencies.md §5.1). */
  commonAt(height: number): Common {
    return this.commons.at(height);
  }

  /**
   * Executes a block's transactions on its parent's state. The last must be the REMASC
   * transaction; any invalid transaction is a `BlockExecutionError` naming its index and code.
   */
  async execute(input: ExecuteBlockInput): Promise<BlockExecutionResult> {
    const {transactions} = input;
    const last = transactions.length - 1;
    const remasc = closingRemascTransaction(transactions);
    if (remasc === undefined) {
      throw new BlockExecutionError(
        {code: BlockExecutionErrorCode.MISSING_REMASC, transactionCount: transactions.length},
        "the last transaction of a block must be the REMASC transaction",
      );
    }
    const run = await this.open(input.block, input.chain, input.parentStateRoot);
    for (let i = 0; i < last; i++) {
      const tx = transactions[i] as Transaction;
      try {
        await run.apply(tx, await run.validate(tx));
      } catch (e) {
        throw atIndex(i, e);
      }
    }
    try {
      await run.applyRemasc(remasc);
    } catch (e) {
      throw atIndex(last, e);
    }
    return run.finish(input.transactionsRoot);
  }

  /**
   * Builds a block from `candidates` in order: invalid ones are skipped with their reason (a
   * sender's later transactions then fail their nonce check too), the REMASC transaction is appended.
   * On a forked chain a candidate that reaches a native contract, or reads a value the upstream cannot give,
   * stops in the middle of its execution, leaving the block's EVM and state mid-message: assembly starts
   * over on a fresh session without it (skipped with that error), so such candidates cost one pass each
   * (docs/forking.md §4.3, §6). One whose validation cannot read its sender is skipped at once.
   */
  async assembleBlock(input: AssembleBlockInput): Promise<AssembledBlock> {
    const unavailable = new Map<Transaction, CandidateStop>();
    for (;;) {
      const pass = await this.assemblePass(input, unavailable);
      if ("block" in pass) return pass.block;
      unavailable.set(pass.stopped, pass.error);
    }
  }

  private async assemblePass(
    input: AssembleBlockInput,
    unavailable: ReadonlyMap<Transaction, CandidateStop>,
  ): Promise<AssemblyPass> {
    const run = await this.open(input.block, input.chain, input.parentStateRoot);
    const skipped: AssembledBlock["skipped"] = [];
    for (const tx of input.candidates) {
      const stopped = unavailable.get(tx);
      if (stopped) {
        skipped.push({transaction: tx, reason: stopped.message, error: stopped});
        continue;
      }
      let message: Awaited<ReturnType<BlockRun["validate"]>>;
      try {
        message = await run.validate(tx);
      } catch (e) {
        // Validation only reads: nothing to undo.
        if (!(e instanceof TransactionInvalidError) && !stopsCandidate(e)) throw e;
        skipped.push({transaction: tx, reason: e.message, error: e});
        continue;
      }
      try {
        await run.apply(tx, message);
      } catch (e) {
        // The pass's session is dropped unreleased: nothing of it is kept or reused.
        if (stopsCandidate(e)) return {stopped: tx, error: e};
        throw e;
      }
    }
    try {
      await run.applyRemasc(createRemascTransaction(input.block.number));
    } catch (e) {
      throw atIndex(run.transactions.length, e);
    }
    const result = await run.finish();
    return {block: {transactions: run.transactions, result, skipped}};
  }

  /**
   * Runs one message on the state at `stateRoot` without keeping anything (eth_call; a gas
   * estimator's trial runs). Only the intrinsic gas is checked (`TransactionInvalidError`). Calls
   * run concurrently and share the event loop with everything else; an aborted `signal` stops one
   * (`ExecutionInterruptedError`). The calls' own runner (calls/callRunner.ts), which a call worker
   * also runs.
   */
  call(input: CallInput): Promise<CallResult> {
    return this.calls.call(input);
  }

  /**
   * Runs one message as `call` does, telling `tracer` about it as one transaction (debug_traceCall,
   * tracing/traceMessage.ts); nothing is kept.
   */
  traceCall(input: CallInput, tracer: ExecutionTracer): Promise<CallResult> {
    return this.calls.traceCall(input, tracer);
  }

  /**
   * Re-executes a block's transactions on its parent's state exactly as `execute` does, telling
   * `tracer` what happens; nothing is written. With `scope.only`, only that transaction is traced
   * and the run stops after it. The outcomes of the traced transactions.
   */
  async trace(
    input: ExecuteBlockInput,
    tracer: ExecutionTracer,
    scope: TraceScope = {},
  ): Promise<TransactionOutcome[]> {
    const sink = createOpcodeTraceSink();
    const run = await this.open(input.block, input.chain, input.parentStateRoot, sink);
    return traceBlock(run, sink, input, tracer, scope);
  }

  private open(
    block: ExecutionBlockContext,
    chain: ExecutionChainView,
    parentStateRoot: Uint8Array,
    trace?: OpcodeTraceSink,
  ): Promise<BlockRun> {
    const profile = gasProfileAt(this.chainspec, block.number);
    return BlockRun.open({
      chainspec: this.chainspec,
      profile,
      common: this.commonAt(block.number),
      stateSource: this.stateSource,
      block,
      chain,
      parentStateRoot,
      ...(trace ? {trace} : {}),
    });
  }
}
