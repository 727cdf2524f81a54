/**
 * The `net` namespace (docs/rpc.md §4.2): the network id is the chain id as a decimal string
 * (docs/protocol/networks.md §1).
 */
import {toQuantity} from "@xchain/utils";
import type {RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {method} from "../params/method.ts";

/** net_* methods. */
export function netMethods({chainspec, peers}: Pick<ModuleDeps, "chainspec" | "peers">): Record<string, RpcMethod> {
  return {
    /** Handler for `net_version` */
    version: method([], () => String(chainspec.params.chainId)),
    /** Handler for `net_listening`: whether peers can connect */
    listening: method([], () => peers.listening()),
    /** Handler for `net_peerCount` */
    peerCount: method([], () => toQuantity(peers.peerCount())),
    /** Handler for `net_peerList` */
    peerList: method([], () => peers.peerList()),
  };
}
