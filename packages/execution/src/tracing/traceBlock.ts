/**
 * A block re-executed for a tracer: the same validation, gas schedule and REMASC handling as
 * import (`BlockRun`), on a fresh session at the parent's state that is never committed, so
 * nothing is written. With `only`, the transactions before it run untraced and the run stops
 * after it.
 */
import type {EVM} from "@ethereumjs/evm";
import {Address} from "@ethereumjs/util";
import {closingRemascTransaction, type Transaction} from "@xchain/primitives";
import type {BlockRun} from "../blockRun.ts";
import {BlockExecutionError, BlockExecutionErrorCode} from "../errors.ts";
import type {ExecuteBlockInput, TransactionOutcome} from "../types.ts";
import {attachTracer} from "./evmHooks.ts";
import type {OpcodeTraceSink} from "./tracedOpcodes.ts";
import type {ExecutionTracer, TracedTransaction, TraceStateView} from "./types.ts";

/** Which transactions to trace: all, or the one at `only` (the run ends after it). */
export interface TraceScope {
  only?: number;
}

/** Runs `input`'s transactions on `run` (opened with `sink`) and tells `tracer`; the outcomes traced. */
export async function traceBlock(
  run: BlockRun,
  sink: OpcodeTraceSink,
  input: ExecuteBlockInput,
  tracer: ExecutionTracer,
  scope: TraceScope,
): Promise<TransactionOutcome[]> {
  const {transactions} = input;
  const remasc = closingRemascTransaction(transactions);
  if (remasc === undefined) {
    throw new BlockExecutionError(
      {code: BlockExecutionErrorCode.MISSING_REMASC, transactionCount: transactions.length},
      "the last transaction of a block must be the REMASC transaction",
    );
  }
  const last = transactions.length - 1;
  const end = scope.only === undefined ? last : Math.min(scope.only, last);
  const traced: TransactionOutcome[] = [];
  const state = stateView(run.env.evm);
  for (let index = 0; index <= end; index++) {
    const transaction = transactions[index] as Transaction;
    const wanted = scope.only === undefined || scope.only === index;
    if (index === last) {
      const tx: TracedTransaction = {index, transaction, gasLimit: transaction.gasLimit, intrinsicGas: 0n};
      if (wanted) await tracer.transactionStart?.(tx, state);
      const payments = await run.applyRemasc(remasc);
      if (wanted) {
        tracer.remasc?.(tx, payments);
        traced.push(await finish(run, tracer, tx, state));
      }
      break;
    }
    const message = await run.validate(transaction);
    const tx: TracedTransaction = {
      index,
      transaction,
      gasLimit: transaction.gasLimit,
      intrinsicGas: message.intrinsicGas,
    };
    if (!wanted) {
      await run.apply(transaction, message);
      continue;
    }
    await tracer.transactionStart?.(tx, state);
    sink.selfDestruct = (event) => tracer.selfDestruct?.(event);
    const detach = attachTracer(run.env.evm, tracer, sink);
    try {
      await run.apply(transaction, message);
    } finally {
      detach();
      sink.selfDestruct = ignore;
      sink.nextFrameKind = undefined;
    }
    traced.push(await finish(run, tracer, tx, state));
  }
  return traced;
}

/** A sink that reports nowhere, for the untraced transactions. */
export function createOpcodeTraceSink(): OpcodeTraceSink {
  return {nextFrameKind: undefined, selfDestruct: ignore};
}

const ignore = () => {};

async function finish(
  run: BlockRun,
  tracer: ExecutionTracer,
  tx: TracedTransaction,
  state: TraceStateView,
): Promise<TransactionOutcome> {
  const outcome = run.outcomes.at(-1) as TransactionOutcome;
  await tracer.transactionEnd?.(tx, outcome, state);
  return outcome;
}

/** The state an EVM runs on, read through its state manager (what the transactions see). */
export function stateView(evm: EVM): TraceStateView {
  const state = evm.stateManager;
  return {
    account: async (address) => {
      const at = new Address(address);
      const account = await state.getAccount(at);
      return account && {nonce: account.nonce, balance: account.balance, code: await state.getCode(at)};
    },
    storage: (address, slot) => state.getStorage(new Address(address), slot),
  };
}
