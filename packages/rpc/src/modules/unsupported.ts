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

/** Why `db_*` is not served (docs/rpc.md §4.7). */
export const DB_REASON =
  "db_* was a key-value store for dapps inside the node, dropped from the Ethereum JSON-RPC API; keep such data in your application";

/** Why `shh_*` is not served (docs/rpc.md §4.7). */
export const SHH_REASON =
  "shh_* is Whisper, Ethereum's retired peer-to-peer messaging; this node and its network do not carry Whisper messages";

/** db_*: deprecated (docs/rpc.md §9 item 4). */
export function dbMethods(): Record<string, RpcMethod> {
  return unsupportedMethods(["putString", "getString", "putHex", "getHex"], DB_REASON);
}

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
