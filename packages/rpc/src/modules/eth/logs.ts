/**
 * eth_getLogs (docs/rpc.md §4.5, §8): by block hash (that block's logs, canonical or not) or over a
 * range (default `latest`, clamped to the head). A range of up to `logsMaxBlockRange` blocks has no
 * cap on logs; a longer one is read in chunks of that size and fails with -32005 once it passes
 * `logsMaxResults`.
 */
import {setImmediate} from "node:timers/promises";
import type {LogWithContext} from "@xchain/chain";
import {toData} from "@xchain/utils";
import {logMatches} from "../../filters/logMatcher.ts";
import {logsToJson} from "../../format/log.ts";
import {receiptLogs} from "../../format/receipt.ts";
import {RpcError, RpcErrorCode} from "../../jsonrpc/errors.ts";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {LATEST} from "../../params/blockRef.ts";
import {type LogFilterRequest, logFilterRequest} from "../../params/filterObject.ts";
import {method, param} from "../../params/method.ts";
import {blockNumberOf} from "../../resolve/blocks.ts";

type LogDeps = Pick<ModuleDeps, "chain" | "options">;

/** The logs a filter request selects, within the limits. */
export async function findLogs(
  {chain, options}: LogDeps,
  request: LogFilterRequest,
  signal: AbortSignal,
): Promise<LogWithContext[]> {
  if (request.kind === "hash") {
    const block = await chain.getBlock(request.blockHash);
    const receipts = block && (await chain.getReceipts(request.blockHash));
    if (!block || !receipts) throw RpcError.server(`unknown block ${toData(request.blockHash)}`);
    return receipts
      .flatMap((_, i) => receiptLogs(block, receipts, i))
      .filter((entry) => logMatches(request, entry.log));
  }
  const from = blockNumberOf(chain, request.fromBlock ?? LATEST);
  const requestedTo = blockNumberOf(chain, request.toBlock ?? LATEST);
  if (from > requestedTo) throw RpcError.invalidParams("invalid argument 0 (filter): fromBlock is after toBlock");
  const to = Math.min(requestedTo, chain.head().number);
  const match = {addresses: request.addresses, topics: request.topics};
  if (to - from < options.logsMaxBlockRange) return chain.getLogs({...match, fromBlock: from, toBlock: to});
  const logs: LogWithContext[] = [];
  for (let start = from; start <= to; start += options.logsMaxBlockRange) {
    await setImmediate();
    if (signal.aborted) throw RpcError.timeout();
    const end = Math.min(start + options.logsMaxBlockRange - 1, to);
    for (const entry of await chain.getLogs({...match, fromBlock: start, toBlock: end})) logs.push(entry);
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
    getLogs: method([param("filter", logFilterRequest)], async (request, context) =>
      logsToJson(await findLogs(deps, request, context.signal)),
    ),
  };
}
