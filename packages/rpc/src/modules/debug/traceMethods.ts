/**
 * debug_traceTransaction, debug_traceBlockByHash and debug_traceBlockByNumber
 * (docs/protocol/debug-traces.md §1, §5): the block is re-executed on its parent's state by the
 * executor, and the chosen tracer's answer is written as JSON whose bytes are counted in the
 * request's budget as it grows. An unknown transaction or block is null; the genesis block is `[]`;
 * `pending` traces the pending block.
 */
import type {TraceScope} from "@xchain/execution";
import type {Block} from "@xchain/primitives";
import {toData} from "@xchain/utils";
import {RawJson} from "../../jsonrpc/rawJson.ts";
import type {RequestContext, RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {blockRef} from "../../params/blockRef.ts";
import {hash} from "../../params/hex.ts";
import {method, optional, param} from "../../params/method.ts";
import {DEFAULT_TRACE_OPTIONS, type TraceOptions, traceOptions} from "../../params/traceOptions.ts";
import {replayInput} from "../../resolve/blockReplay.ts";
import {findHeader, isPendingRef} from "../../resolve/blocks.ts";
import {type TracedResult, traceWithChosenTracer} from "./chosenTracer.ts";

type DebugTraceDeps = Pick<ModuleDeps, "chain" | "chainspec" | "executor" | "pendingBlock" | "options">;

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
  const input = await replayInput(deps.chain, block, deps.chainspec);
  if (!input) return [];
  return traceWithChosenTracer(options, context, (tracer) => deps.executor.trace(input, tracer, scope));
}

/** `[{txHash, result}]` for a block, every tracer alike (docs/protocol/debug-traces.md §1.2). */
function blockResult(results: readonly TracedResult[], context: RequestContext): RawJson {
  const entries = results.map(({tx, json}) => `{"txHash":"${toData(tx.transaction.hash())}","result":${json}}`);
  // The wrapping around each result: its bytes too.
  context.budget.reserve(entries.length * 90);
  return new RawJson(Buffer.from(`[${entries.join(",")}]`));
}
