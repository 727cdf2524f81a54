/**
 * trace_* (docs/protocol/traces.md §6, docs/rpc.md §4.6): parity-style flat traces of re-executed
 * blocks. Whole blocks' traces are kept in a small LRU by block hash; trace_transaction replays its
 * block only up to the transaction unless the block is kept. Answers are written entry by entry,
 * each entry's bytes counted in the request's budget, and a trace_filter scan stops when the
 * request's signal is aborted.
 */
import {setImmediate} from "node:timers/promises";
import type {Block} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import {RpcError, RpcErrorCode} from "../jsonrpc/errors.ts";
import type {RawJson} from "../jsonrpc/rawJson.ts";
import type {RequestContext, RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {hash} from "../params/hex.ts";
import {method, param} from "../params/method.ts";
import {type TraceBlockRef, type TraceFilterRequest, traceBlockRef, traceFilterRequest} from "../params/traceFilter.ts";
import {blockNumberOf, findBlock as findBlockByNumber} from "../resolve/blocks.ts";
import {type TraceDeps, type TransactionTraces, traceBlockTransactions} from "../trace/blockTraces.ts";
import {TraceCache} from "../trace/traceCache.ts";
import {TraceJsonWriter} from "../trace/traceJson.ts";

type TraceModuleDeps = TraceDeps & Pick<ModuleDeps, "options" | "pendingBlock">;

/** trace_transaction, trace_block, trace_filter, sharing one cache of block traces. */
export function traceMethods(deps: TraceModuleDeps): Record<string, RpcMethod> {
  const {chain, options} = deps;
  const cache = new TraceCache();

  /** A whole block's traces, from the cache or a replay that is then kept. */
  const blockTraces = async (block: Block): Promise<TransactionTraces[]> => {
    const blockHash = block.hash();
    const cached = cache.get(blockHash);
    if (cached) return cached;
    const traces = await traceBlockTransactions(deps, block);
    cache.set(blockHash, traces);
    return traces;
  };

  const findBlock = (ref: TraceBlockRef): Promise<Block | undefined> =>
    ref.kind === "hash" ? chain.getBlock(ref.hash) : findBlockByNumber(chain, ref, options, deps.pendingBlock);

  const writeAll = (groups: readonly TransactionTraces[], context: RequestContext): RawJson => {
    const json = new TraceJsonWriter((bytes) => context.budget.reserve(bytes));
    for (const group of groups) for (const trace of group.traces) json.add(trace);
    return json.finish();
  };

  return {
    /** Handler for `trace_transaction`: null unless the transaction is on the canonical chain */
    transaction: method([param("transactionHash", hash)], async (txHash, context) => {
      const location = await chain.getTransactionLocation(txHash);
      const block = location && (await chain.getBlock(location.blockHash));
      if (!location || !block) return null;
      const cached = cache.get(location.blockHash)?.[location.index];
      const traced = cached ?? (await traceBlockTransactions(deps, block, location.index)).at(-1);
      return traced ? writeAll([traced], context) : null;
    }),
    /** Handler for `trace_block`: any stored block by hash, a canonical one by number or tag */
    block: method([param("block", traceBlockRef)], async (ref, context) => {
      const block = await findBlock(ref);
      return block ? writeAll(await blockTraces(block), context) : null;
    }),
    /** Handler for `trace_filter` */
    filter: method([param("filter", traceFilterRequest(options.trace.maxTracesPerRequest))], (request, context) =>
      filterTraces(request, context),
    ),
  };

  async function filterTraces(request: TraceFilterRequest, context: RequestContext): Promise<RawJson> {
    const from = blockNumberOf(chain, request.fromBlock, options);
    const requestedTo = blockNumberOf(chain, request.toBlock, options);
    if (from > requestedTo) throw RpcError.invalidParams("fromBlock cannot be greater than toBlock");
    const to = Math.min(requestedTo, chain.head().number);
    const {maxBlockRange} = options.trace;
    // The principal's range, when shorter than the node's (an API key's, docs/gateway.md).
    const keyRange = context.limits.traceMaxBlockRange;
    if (to - from + 1 > maxBlockRange) {
      throw new RpcError(
        RpcErrorCode.LIMIT_EXCEEDED,
        `trace_filter covers ${to - from + 1} blocks; at most ${maxBlockRange} (rpc.trace.maxBlockRange) at a time`,
      );
    }
    if (to - from + 1 > keyRange) {
      throw RpcError.limitExceeded(
        `trace_filter covers ${to - from + 1} blocks; at most ${keyRange} for API key ${context.principal.id}`,
      );
    }
    const selects = transactionSelector(request);
    const json = new TraceJsonWriter((bytes) => context.budget.reserve(bytes));
    let skip = request.after;
    for (let number = from; number <= to && json.count < request.count; number++) {
      await setImmediate();
      if (context.signal.aborted) throw RpcError.timeout();
      const block = await chain.getBlockByNumber(number);
      if (!block?.transactions.some((tx) => selects(tx.sender(), tx.to))) continue;
      for (const group of await blockTraces(block)) {
        if (!selects(group.from, group.to)) continue;
        for (const trace of group.traces) {
          if (json.count >= request.count) break;
          if (skip > 0) skip--;
          else json.add(trace);
        }
      }
    }
    return json.finish();
  }
}

/** Whether a transaction's sender and recipient pass the filter's address lists (docs/protocol/traces.md §6.3). */
function transactionSelector(request: TraceFilterRequest): (from: Uint8Array, to: Uint8Array | undefined) => boolean {
  const listed = (list: Uint8Array[] | undefined, address: Uint8Array | undefined) =>
    list === undefined ||
    list.length === 0 ||
    (address !== undefined && list.some((entry) => equalBytes(entry, address)));
  return (from, to) => listed(request.fromAddress, from) && listed(request.toAddress, to);
}
