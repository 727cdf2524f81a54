/**
 * The `rpc` namespace: `rpc.discover`, the OpenRPC document of this node's methods (docs/rpc.md
 * §4.9). It is always on, whatever the network (geth and the OpenRPC tools expect the discovery
 * method to answer), and is not one of the configurable `RPC_MODULE_NAMES`.
 */

import {RawJson} from "../jsonrpc/rawJson.ts";
import type {MethodRegistry, RpcMethod} from "../jsonrpc/registry.ts";
import {openRpcDocument} from "../openrpc/document.ts";
import {method} from "../params/method.ts";
import {clientVersionNumber} from "./web3.ts";

/** OpenRPC's meta-schema, the schema of `rpc.discover`'s result as the OpenRPC specification names it. */
const META_SCHEMA = {$ref: "https://raw.githubusercontent.com/open-rpc/meta-schema/master/schema.json"};

/**
 * rpc.* methods. `registry` gives the registry these methods end up in (built after them). The
 * document is static for a server's options, so it is generated and serialized once, on first call.
 */
export function rpcMethods(registry: () => MethodRegistry, clientVersion: string): Record<string, RpcMethod> {
  let document: RawJson | undefined;
  return {
    /** Handler for `rpc.discover` */
    discover: {
      ...method([], () => {
        document ??= new RawJson(
          Buffer.from(JSON.stringify(openRpcDocument(registry().entries(), clientVersionNumber(clientVersion)))),
        );
        return document;
      }),
      result: META_SCHEMA,
    },
  };
}
