/**
 * Polled filters (docs/rpc.md §3.2, §4.5); an unknown filter id is -32000 `filter not found`
 * (docs/protocol/errors.md). Filters count against the caller's client (docs/rpc.md §8).
 */
import {toData, toQuantity} from "@xchain/utils";
import {logsToJson} from "../../format/log.ts";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {type Codec, ParamError, withSchema} from "../../params/codec.ts";
import {type LogFilterRequest, logFilterRequest} from "../../params/filterObject.ts";
import {quantity} from "../../params/hex.ts";
import {method, param} from "../../params/method.ts";
import {findLogs} from "./logs.ts";

/** A filter id as the manager keys it (a QUANTITY in canonical form). */
const filterId: Codec<string> = withSchema(quantity.schema ?? {}, (value, path) => toQuantity(quantity(value, path)));

// eth_newFilter takes a block range (docs/rpc.md §4.5), not a block hash.
const rangeFilter: Codec<LogFilterRequest & {kind: "range"}> = withSchema(
  logFilterRequest.schema ?? {},
  (value, path) => {
    const request = logFilterRequest(value, path);
    if (request.kind !== "range") throw new ParamError(`${path}.blockHash`, "not allowed in eth_newFilter");
    return request;
  },
);

/**
 * eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter, eth_getFilterChanges,
 * eth_getFilterLogs, eth_uninstallFilter.
 */
export function ethFilterMethods(deps: Pick<ModuleDeps, "chain" | "options" | "filters">): Record<string, RpcMethod> {
  const {filters} = deps;
  return {
    /** Handler for `eth_newFilter` */
    newFilter: method([param("filter", rangeFilter)], (request, context) =>
      filters.installLogFilter(request, context.client),
    ),
    /** Handler for `eth_newBlockFilter` */
    newBlockFilter: method([], (context) => filters.installHashFilter("blocks", context.client)),
    /** Handler for `eth_newPendingTransactionFilter` */
    newPendingTransactionFilter: method([], (context) =>
      filters.installHashFilter("pendingTransactions", context.client),
    ),
    /** Handler for `eth_getFilterChanges`: block or transaction hashes, or logs, since the last poll */
    getFilterChanges: method([param("filterId", filterId)], (id) => {
      const changes = filters.takeChanges(id);
      return changes.kind === "logs" ? logsToJson(changes.logs) : changes.hashes.map(toData);
    }),
    /** Handler for `eth_getFilterLogs`: every log the filter's query selects now */
    getFilterLogs: method([param("filterId", filterId)], async (id, context) => {
      const query = filters.logQuery(id);
      return logsToJson(await findLogs(deps, {...query, kind: "range"}, context.signal, undefined, context.principal));
    }),
    /** Handler for `eth_uninstallFilter` */
    uninstallFilter: method([param("filterId", filterId)], (id) => filters.uninstall(id)),
  };
}
