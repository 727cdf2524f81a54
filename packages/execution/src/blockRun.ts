/**
 * The execution of one block in progress: a state session on the parent's root with a single
 * checkpoint (docs/dependencies.md §3.1), the block's EVM, and the receipts so far.
 */
import type {Common} from "@ethereumjs/common";
import type {Chainspec} from "@xchain/chainspec";
import {bloomOr, LOGS_BLOOM_LENGTH, Receipt, type Transaction} from "@xchain/primitives";
import type {StateSession, StateSource} from "@xchain/state";
import {createBlockEvm, evmBlock} from "./evm.ts";
import type {GasProfile} from "./gas/gasProfile.ts";
import {createNativeSession} from "./native/dispatch/session.ts";
import {applyRemascTransaction} from "./native/remasc/transaction.ts";
import {receiptsRoot, transactionsRoot} from "./roots.ts";
import type {OpcodeTraceSink} from "./tracing/tracedOpcodes.ts";
import type {RemascPayment} from "./tracing/types.ts";
import {
  type MessageInput,
  runMessage,
  type TransactionEnvironment,
  validateTransaction,
} from "./transactionExecutor.ts";
import type {BlockExecutionResult, ExecutionBlockContext, ExecutionChainView, TransactionOutcome} from "./types.ts";

/** Where a block runs: its network, gas profile and Common, and the state it starts from. */
export interface BlockRunSetup {
  chainspec: Chainspec;
  profile: GasProfile;
  common: Common;
  stateSource: StateSource;
  block: ExecutionBlockContext;
  chain: ExecutionChainView;
  parentStateRoot: Uint8Array;
  /** Tracing: the EVM reports its message-making opcodes, and the session is a fresh one (not import's warm one). */
  trace?: OpcodeTraceSink;
}

/** One block being executed or assembled. */
export class BlockRun {
  readonly transactions: Transaction[] = [];
  readonly receipts: Receipt[] = [];
  readonly outcomes: TransactionOutcome[] = [];
  gasUsed = 0n;
  paidFees = 0n;

  private constructor(
    readonly session: StateSession,
    readonly env: TransactionEnvironment,
    private readonly chain: ExecutionChainView,
    private readonly chainspec: Chainspec,
  ) {}

  /** Opens the session at the parent's root and the block's EVM. */
  static async open(setup: BlockRunSetup): Promise<BlockRun> {
    const session = await setup.stateSource.openSession(setup.parentStateRoot, setup.common, {
      transient: setup.trace !== undefined,
    });
    const stateManager = session.stateManager;
    await stateManager.checkpoint();
    const scope = {selfDestructed: new Set<string>(), native: createNativeSession(setup.chainspec)};
    const evm = await createBlockEvm(setup.profile, setup.common, stateManager, setup.chain, scope, {
      ...(setup.trace ? {trace: setup.trace} : {}),
    });
    const env: TransactionEnvironment = {
      evm,
      block: setup.block,
      evmBlock: evmBlock(setup.block),
      scope,
      gasPriceCapActive: setup.chainspec.isActive("RSKIP252", setup.block.number),
    };
    return new BlockRun(session, env, setup.chain, setup.chainspec);
  }

  /** Checks `tx` against the state and the block so far (throws `TransactionInvalidError`). */
  validate(tx: Transaction): Promise<MessageInput> {
    return validateTransaction(this.env, tx, this.gasUsed);
  }

  /** Executes a validated transaction and records its receipt. */
  async apply(tx: Transaction, message: MessageInput): Promise<void> {
    const result = await runMessage(this.env, message, true);
    const fee = result.gasUsed * message.gasPrice;
    this.gasUsed += result.gasUsed;
    this.paidFees += fee;
    const outcome: TransactionOutcome = {
      transaction: tx,
      status: result.status,
      gasUsed: result.gasUsed,
      cumulativeGasUsed: this.gasUsed,
      fee,
      logs: result.logs,
    };
    if (result.contractAddress) outcome.contractAddress = result.contractAddress;
    if (result.revertData) outcome.revertData = result.revertData;
    this.record(outcome);
  }

  /** Applies the REMASC transaction that closes the block (its receipt: status 1, no gas, its logs); what it paid. */
  async applyRemasc(tx: Transaction): Promise<RemascPayment[]> {
    const {logs, payments} = await applyRemascTransaction(
      this.env.evm.stateManager,
      tx,
      this.chainspec,
      this.env.block,
      this.chain.remasc,
    );
    this.record({transaction: tx, status: true, gasUsed: 0n, cumulativeGasUsed: this.gasUsed, fee: 0n, logs});
    return payments;
  }

  /**
   * Commits the block's state and computes what its header commits to; `checkedTransactionsRoot` is taken
   * as given when the caller has checked it already.
   */
  async finish(checkedTransactionsRoot?: Uint8Array): Promise<BlockExecutionResult> {
    await this.session.stateManager.commit();
    const {root, writes} = await this.session.commit();
    // Done with the state: the next block on this root may reuse the session's warm caches.
    this.session.release();
    let bloom: Uint8Array = new Uint8Array(LOGS_BLOOM_LENGTH);
    for (const receipt of this.receipts) bloom = bloomOr(bloom, receipt.logsBloom);
    return {
      stateRoot: root,
      receiptsRoot: receiptsRoot(this.receipts),
      transactionsRoot: checkedTransactionsRoot ?? transactionsRoot(this.transactions),
      logsBloom: bloom,
      gasUsed: this.gasUsed,
      paidFees: this.paidFees,
      receipts: this.receipts,
      outcomes: this.outcomes,
      stateWrites: writes,
    };
  }

  private record(outcome: TransactionOutcome): void {
    this.transactions.push(outcome.transaction);
    this.outcomes.push(outcome);
    this.receipts.push(
      new Receipt({
        success: outcome.status,
        cumulativeGas: outcome.cumulativeGasUsed,
        gasUsed: outcome.gasUsed,
        logs: outcome.logs,
      }),
    );
  }
}
