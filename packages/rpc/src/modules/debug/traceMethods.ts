/**
 * debug_traceTransaction, debug_traceBlockByHash and debug_traceBlockByNumber
 * (docs/protocol/debug-traces.md §1, §5): the block is re-executed on its parent's state by the
 * executor, and the chosen tracer's answer is written as JSON whose bytes are counted in the
 * request's budget as it grows. An unknown transaction or block is null; the genesis block is `[]`;
 * `pending` traces the pending block.
 */
import type {ExecutionTracer, TracedTransaction, TraceScope} from "@xchain/execution";
import type {Block} from "@xchain/primitives";
import {toData} from "@xchain/utils";
import {RpcError} from "../../jsonrpc/errors.ts";
import {RawJson} from "../../jsonrpc/rawJson.ts";
import type {RequestContext, RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {blockRef} from "../../params/blockRef.ts";
import {hash} from "../../params/hex.ts";
import {method, optional, param} from "../../params/method.ts";
import {DEFAULT_TRACE_OPTIONS, type TraceOptions, traceOptions} from "../../params/traceOptions.ts";
import {replayInput} from "../../resolve/blockReplay.ts";
import {findHeader, isPendingRef} from "../../resolve/blocks.ts";
import {createCallTracer, gethCallFrame} from "../../trace/gethCallTracer.ts";
import {PrestateReader, prestateDiff, TouchRecorder} from "../../trace/prestateTracer.ts";
import {StructLogTracer} from "../../trace/structLogger.ts";

type DebugTraceDeps = Pick<ModuleDeps, "chain" | "chainspec" | "executor" | "pendingBlock" | "options">;

/** One traced transaction's result as JSON text. */
interface TracedResult {
  tx: TracedTransaction;
  json: string;
}

/** debug_trace* methods. */
export function debugTraceMethods(deps: DebugTraceDeps): Record<string, RpcMethod> {
  const options = optional("options", traceOptions, DEFAULT_TRACE_OPTIONS);
  return {
    /** Handler for `debug_traceTransaction`: the transaction's trace, or null when it is unknown */
    traceTransaction: method([param("transactionHash", hash), options], async (txHash, opts, context) => {
      const location = await deps.chain.getTransactionLocation(txHash);
      const block = location && (await deps.chain.getBlock(location.blockHash));
      if (!location || !block) return null;
      const [traced] = await traceBlock(deps, block, opts, context, {only: location.index});
      return traced ? new RawJson(Buffer.from(traced.json)) : null;
    }),
    /** Handler for `debug_traceBlockByHash`: `[{txHash, result}]`, or null when the block is unknown */
    traceBlockByHash: method([param("blockHash", hash), options], async (blockHash, opts, context) => {
      const block = await deps.chain.getBlock(blockHash);
      return block ? blockResult(await traceBlock(deps, block, opts, context, {}), context) : null;
    }),
    /** Handler for `debug_traceBlockByNumber`: as by hash, for a number, tag or hash */
    traceBlockByNumber: method([param("block", blockRef), options], async (ref, opts, context) => {
      const pending = deps.pendingBlock && isPendingRef(ref) ? await deps.pendingBlock.pendingBlock() : undefined;
      const header = pending ? undefined : await findHeader(deps.chain, ref, deps.options);
      const block = pending?.block ?? (header && (await deps.chain.getBlock(header.hash())));
      return block ? blockResult(await traceBlock(deps, block, opts, context, {}), context) : null;
    }),
  };
}

/** Re-executes `block` (or its transaction at `scope.only`) under the chosen tracer. */
async function traceBlock(
  deps: DebugTraceDeps,
  block: Block,
  options: TraceOptions,
  context: RequestContext,
  scope: TraceScope,
): Promise<TracedResult[]> {
  const input = await replayInput(deps.chain, block, deps.chainspec.params.remascMaturity);
  if (!input) return [];
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
      await deps.executor.trace(input, tracer, scope);
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

/** `[{txHash, result}]` for a block, every tracer alike (docs/protocol/debug-traces.md §1.2). */
function blockResult(results: readonly TracedResult[], context: RequestContext): RawJson {
  const entries = results.map(({tx, json}) => `{"txHash":"${toData(tx.transaction.hash())}","result":${json}}`);
  // The wrapping around each result: its bytes too.
  context.budget.reserve(entries.length * 90);
  return new RawJson(Buffer.from(`[${entries.join(",")}]`));
}
