/**
 * Namespaces registered only so that the inventory matches docs/rpc.md §4.7 and callers get a
 * deliberate -32601 "not available" with the reason instead of "method not found" (design "RPC").
 */
import type {RpcMethod} from "../jsonrpc/registry.ts";
import {unsupported} from "../params/method.ts";

/** Stubs answering -32601 with `reason`. */
export function unsupportedMethods(names: readonly string[], reason: string): Record<string, RpcMethod> {
  return Object.fromEntries(names.map((name) => [name, unsupported(reason)]));
}

/** Why `shh_*` is not served (docs/rpc.md §4.7). */
export const SHH_REASON =
  "shh_* is Whisper, Ethereum's retired peer-to-peer messaging; this node and its network do not carry Whisper messages";

/** shh_*: whisper is not supported (docs/rpc.md §4.7). */
export function shhMethods(): Record<string, RpcMethod> {
  return unsupportedMethods(
    [
      "post",
      "version",
      "newIdentity",
      "hasIdentity",
      "newGroup",
      "addToGroup",
      "newFilter",
      "uninstallFilter",
      "getFilterChanges",
      "getMessages",
    ],
    SHH_REASON,
  );
}
