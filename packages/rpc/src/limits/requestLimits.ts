/**
 * The node's own request limits (docs/rpc.md §8): what a request runs under when no API key narrows
 * them (docs/gateway.md §3), and what a key's limits are merged with.
 */
import type {NetworkParams} from "@xchain/chainspec";
import type {RequestLimits} from "../jsonrpc/principal.ts";
import {defaultRpcOptions, isCallStateOverrideAllowedByDefault, type RpcOptions} from "../options.ts";

/** The limits of `options` on `network` (which decides state overrides when `allowCallStateOverride` is unset). */
export function nodeRequestLimits(
  options: Pick<RpcOptions, "maxBatchSize" | "trace" | "allowCallStateOverride">,
  network: NetworkParams["name"],
): RequestLimits {
  const overrideAllowed = options.allowCallStateOverride ?? isCallStateOverrideAllowedByDefault(network);
  return {
    maxBatchSize: options.maxBatchSize,
    logsMaxBlockRange: undefined,
    traceMaxBlockRange: options.trace.maxBlockRange,
    maxSubscriptions: undefined,
    stateOverrideRefusal: overrideAllowed ? undefined : "on this node (rpc.allowCallStateOverride)",
  };
}

/** The defaults' limits on a public network: what keys are merged with when no node limits are given. */
export const DEFAULT_NODE_LIMITS: RequestLimits = nodeRequestLimits(defaultRpcOptions, "mainnet");
