/**
 * eth_getLogs (docs/rpc.md §4.5, §8): by block hash (that block's logs, canonical or not) or over a
 * range (default `latest`, clamped to the head). A range of up to `logsMaxBlockRange` blocks has no
 * cap on logs; a longer one is read in chunks of that size and fails with -32005 once it passes
 * `logsMaxResults`. The JSON is written as logs are found, each log's bytes reserved in the request's
 * budget first: the scan stops as soon as the response would pass a byte cap, and when the request's
 * signal is aborted. An API key's `logsMaxBlockRange` caps a range outright: -32005 beyond (docs/gateway.md).
 */
import {setImmediate} from "node:timers/promises";
import type {LogWithContext} from "@xchain/chain";
import {toData} from "@xchain/utils";
import {logMatches} from "../../filters/logMatcher.ts";
import {LogJsonWriter} from "../../format/log.ts";
import {receiptLogs} from "../../format/receipt.ts";
import {RpcError, RpcErrorCode} from "../../jsonrpc/errors.ts";
import type {Principal} from "../../jsonrpc/principal.ts";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {LATEST} from "../../params/blockRef.ts";
import {type LogFilterRequest, logFilterRequest} from "../../params/filterObject.ts";
import {method, param} from "../../params/method.ts";
import {blockNumberOf} from "../../resolve/blocks.ts";

type LogDeps = Pick<ModuleDeps, "chain" | "options">;

/**
 * The logs a filter request selects, within the limits. `onLog` sees each one as it is found and
 * may throw to stop the search; the search also stops once `signal` is aborted. `principal`: whom
 * the request runs for (its range cap).
 */
export async function findLogs(
  {chain, options}: LogDeps,
  request: LogFilterRequest,
  signal: AbortSignal,
  onLog?: (entry: LogWithContext) => void,
  principal?: Principal,
): Promise<LogWithContext[]> {
  if (request.kind === "hash") {
    const block = await chain.getBlock(request.blockHash);
    const receipts = block && (await chain.getReceipts(request.blockHash));
    if (!block || !receipts) throw RpcError.server(`unknown block ${toData(request.blockHash)}`);
    const logs = receipts
      .flatMap((_, i) => receiptLogs(block, receipts, i))
      .filter((entry) => logMatches(request, entry.log));
    if (onLog) for (const entry of logs) onLog(entry);
    return logs;
  }
  const control = {signal, onLog};
  const from = blockNumberOf(chain, request.fromBlock ?? LATEST, options);
  const requestedTo = blockNumberOf(chain, request.toBlock ?? LATEST, options);
  if (from > requestedTo) throw RpcError.invalidParams("invalid argument 0 (filter): fromBlock is after toBlock");
  const to = Math.min(requestedTo, chain.head().number);
  const keyRange = principal?.requestLimits.logsMaxBlockRange;
  if (keyRange !== undefined && to - from + 1 > keyRange) {
    throw RpcError.limitExceeded(
      `eth_getLogs covers ${to - from + 1} blocks; at most ${keyRange} for API key ${principal?.id}`,
    );
  }
  const match = {addresses: request.addresses, topics: request.topics};
  if (to - from < options.logsMaxBlockRange) return chain.getLogs({...match, fromBlock: from, toBlock: to}, control);
  const logs: LogWithContext[] = [];
  for (let start = from; start <= to; start += options.logsMaxBlockRange) {
    await setImmediate();
    if (signal.aborted) throw RpcError.timeout();
    const end = Math.min(start + options.logsMaxBlockRange - 1, to);
    for (const entry of await chain.getLogs({...match, fromBlock: start, toBlock: end}, control)) logs.push(entry);
    if (logs.length > options.logsMaxResults) {
      throw new RpcError(
        RpcErrorCode.LIMIT_EXCEEDED,
        `query returned more than ${options.logsMaxResults} results; query at most ${options.logsMaxBlockRange} blocks at a time`,
      );
    }
  }
  return logs;
}

/** eth_getLogs. */
export function ethLogMethods(deps: LogDeps): Record<string, RpcMethod> {
  return {
    /** Handler for `eth_getLogs` */
    getLogs: method([param("filter", logFilterRequest)], async (request, context) => {
      const json = new LogJsonWriter((bytes) => context.budget.reserve(bytes));
      await findLogs(deps, request, context.signal, (entry) => json.add(entry), context.principal);
      return json.finish();
    }),
  };
}
