/**
 * The tracer a debug_trace* request chose (docs/protocol/debug-traces.md §2), run over whatever
 * executes (a block re-executed, or a call), with the tracing limits of docs/rpc.md §8: the
 * answer's bytes reserved in the request's budget as it is written, and the work stopped once the
 * request is abandoned.
 */
import type {ExecutionTracer, TracedTransaction} from "@xchain/execution";
import {RpcError} from "../../jsonrpc/errors.ts";
import type {RequestContext} from "../../jsonrpc/registry.ts";
import type {TraceOptions} from "../../params/traceOptions.ts";
import {createCallTracer, gethCallFrame} from "../../trace/gethCallTracer.ts";
import {PrestateReader, prestateDiff, TouchRecorder} from "../../trace/prestateTracer.ts";
import {StructLogTracer} from "../../trace/structLogger.ts";

/** One traced transaction's result as JSON text. */
export interface TracedResult {
  tx: TracedTransaction;
  json: string;
}

/** Runs the execution `execute` under the chosen tracer (the prestateTracer runs it twice); one result per traced transaction. */
export async function traceWithChosenTracer(
  options: TraceOptions,
  context: RequestContext,
  execute: (tracer: ExecutionTracer) => Promise<unknown>,
): Promise<TracedResult[]> {
  // A refusal thrown inside the EVM's callbacks may come back wrapped: the one recorded here is answered.
  let stop: unknown;
  const reserve = (bytes: number) => {
    if (!context.budget.tryReserve(bytes)) {
      stop = context.budget.exceeded;
      throw stop;
    }
  };
  const checkAbort = () => {
    if (context.signal.aborted) {
      stop = RpcError.timeout();
      throw stop;
    }
  };
  const run = async (tracer: ExecutionTracer) => {
    try {
      await execute(tracer);
    } catch (e) {
      throw stop ?? e;
    }
    checkAbort();
  };
  if (options.tracer === "callTracer") {
    const calls = createCallTracer(options, checkAbort);
    await run(calls.tracer);
    return calls.tree.transactions.map((traced) => {
      const json = JSON.stringify(gethCallFrame(traced, options, calls.positions));
      reserve(Buffer.byteLength(json));
      return {tx: traced.tx, json};
    });
  }
  if (options.tracer === "prestateTracer") {
    // Two runs: what each transaction touches (and the state after it), then the state before it.
    const touches = new TouchRecorder(options.diffMode);
    await run(touches);
    const reader = new PrestateReader(touches.touched);
    await run(reader);
    return [...reader.before].map(([index, before]) => {
      const result = options.diffMode ? prestateDiff(before, touches.after.get(index) ?? {}) : before;
      const json = JSON.stringify(result);
      reserve(Buffer.byteLength(json));
      return {tx: touches.transactions[index] as TracedTransaction, json};
    });
  }
  const logger = new StructLogTracer(options, reserve, checkAbort);
  await run(logger);
  return logger.results;
}
