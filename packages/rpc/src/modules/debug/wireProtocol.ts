/**
 * `debug_wireProtocolQueueSize` (docs/rpc.md §4.7): the messages peers sent that the p2p layer
 * holds and has not finished handling, as a QUANTITY; `0x0` on a node without p2p.
 */
import {toQuantity} from "@xchain/utils";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {method} from "../../params/method.ts";

/** The debug_* method over the p2p layer's queue. */
export function wireProtocolMethods({wireQueue}: Pick<ModuleDeps, "wireQueue">): Record<string, RpcMethod> {
  return {
    /** Handler for `debug_wireProtocolQueueSize` */
    wireProtocolQueueSize: method([], () => toQuantity(wireQueue.queueSize())),
  };
}
