/**
 * eth_subscribe and eth_unsubscribe (docs/rpc.md §4.8): WebSocket only. Over HTTP they answer -32601
 * "not available" naming the reason, the error rskj gives for a method a transport lacks.
 */

import {MethodUnavailableError, RpcError} from "../../jsonrpc/errors.ts";
import type {Connection, RequestContext, RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {type Codec, jsonType, ParamError, string, withSchema} from "../../params/codec.ts";
import {type LogMatchRequest, logMatchRequest} from "../../params/filterObject.ts";
import {method, optional, param} from "../../params/method.ts";

const KINDS = ["newHeads", "logs", "newPendingTransactions", "syncing"] as const;
type Kind = (typeof KINDS)[number];

const subscriptionKind: Codec<Kind> = withSchema({type: "string", enum: [...KINDS]}, (value, path) => {
  if (typeof value !== "string" || !(KINDS as readonly string[]).includes(value)) {
    const got = typeof value === "string" ? `"${value}"` : jsonType(value);
    throw new ParamError(path, `expected one of ${KINDS.join(", ")}, got ${got}`);
  }
  return value as Kind;
});

function connectionOf(context: RequestContext): Connection {
  if (!context.connection) throw new MethodUnavailableError("subscriptions need a WebSocket connection");
  return context.connection;
}

/** -32005 when the caller's API key holds its `maxSubscriptions` over all its connections (docs/gateway.md). */
function checkKeySubscriptions(subscriptions: ModuleDeps["subscriptions"], context: RequestContext): void {
  const {maxSubscriptions} = context.limits;
  const {principal} = context;
  if (maxSubscriptions !== undefined && subscriptions.heldBy(principal.openConnections()) >= maxSubscriptions) {
    throw RpcError.limitExceeded(`${maxSubscriptions} subscriptions for API key ${principal.id}`);
  }
}

/** eth_subscribe, eth_unsubscribe. */
export function ethSubscriptionMethods({subscriptions}: Pick<ModuleDeps, "subscriptions">): Record<string, RpcMethod> {
  return {
    /** Handler for `eth_subscribe` */
    subscribe: method(
      [param("subscription", subscriptionKind), optional("filter", logMatchRequest)],
      (kind, filter: LogMatchRequest | undefined, context) => {
        const connection = connectionOf(context);
        checkKeySubscriptions(subscriptions, context);
        if (kind === "logs") return subscriptions.subscribe(connection, {kind, filter: filter ?? {}});
        if (filter) throw RpcError.invalidParams("invalid argument 1 (filter): only the logs subscription takes one");
        return subscriptions.subscribe(connection, {kind});
      },
    ),
    /** Handler for `eth_unsubscribe` */
    unsubscribe: method([param("subscriptionId", string)], (id, context) =>
      subscriptions.unsubscribe(connectionOf(context), id),
    ),
  };
}
