/**
 * A call's message told to a tracer as one transaction (debug_traceCall): the tracer hears
 * `transactionStart`, the frames and steps, then `transactionEnd`, as for a transaction of a traced
 * block. The call has no signed transaction: the tracers are given the impersonated transaction of
 * its sender (primitives' transaction/impersonation.ts), which carries the sender without a key.
 */
import {Address} from "@ethereumjs/util";
import {Transaction} from "@xchain/primitives";
import {type MessageInput, runMessage, type TransactionEnvironment} from "../transactionExecutor.ts";
import type {CallResult, TransactionOutcome} from "../types.ts";
import {attachTracer} from "./evmHooks.ts";
import {stateView} from "./traceBlock.ts";
import type {OpcodeTraceSink} from "./tracedOpcodes.ts";
import type {ExecutionTracer, TracedTransaction} from "./types.ts";

/** Runs `message` on `env` (whose EVM reports to `sink`) without charging gas, telling `tracer`; its result. */
export async function traceMessage(
  env: TransactionEnvironment,
  sink: OpcodeTraceSink,
  message: MessageInput,
  tracer: ExecutionTracer,
): Promise<CallResult> {
  const {evm} = env;
  const state = stateView(evm);
  const sender = message.caller.bytes;
  const nonce = (await evm.stateManager.getAccount(new Address(sender)))?.nonce ?? 0n;
  const transaction = Transaction.impersonate(
    {
      nonce,
      gasPrice: message.gasPrice,
      gasLimit: message.gasLimit,
      to: message.to?.bytes,
      value: message.value,
      data: message.data,
    },
    sender,
  );
  const tx: TracedTransaction = {index: 0, transaction, gasLimit: message.gasLimit, intrinsicGas: message.intrinsicGas};
  await tracer.transactionStart?.(tx, state);
  sink.selfDestruct = (event) => tracer.selfDestruct?.(event);
  const detach = attachTracer(evm, tracer, sink);
  let result: CallResult;
  try {
    result = await runMessage(env, message, false);
  } finally {
    detach();
  }
  const outcome: TransactionOutcome = {
    transaction,
    status: result.status,
    gasUsed: result.gasUsed,
    cumulativeGasUsed: result.gasUsed,
    // A call moves no balance for its gas (runMessage without charging): no fee is paid.
    fee: 0n,
    logs: result.logs,
    ...(result.contractAddress ? {contractAddress: result.contractAddress} : {}),
    ...(result.revertData ? {revertData: result.revertData} : {}),
  };
  await tracer.transactionEnd?.(tx, outcome, state);
  return result;
}
