/**
 * The OpenRPC document `rpc.discover` answers (docs/rpc.md §4.9): every registered method with
 * its positional parameters (the codecs' schemas), its result where the method declares one,
 * and the extensions `x-namespace`, `x-enabled` and, for stubs, `x-unsupported` with the reason.
 */

import {ANY_SCHEMA, type JsonSchema} from "../jsonrpc/jsonSchema.ts";
import type {RegisteredMethod} from "../jsonrpc/registry.ts";

/** The OpenRPC specification version the document follows. */
export const OPENRPC_VERSION = "1.2.6";

/** An OpenRPC content descriptor: a parameter or a result. */
export interface ContentDescriptor {
  name: string;
  required?: boolean;
  schema: JsonSchema;
  description?: string;
}

/** One method of the document. */
export interface OpenRpcMethod {
  name: string;
  paramStructure: "by-position";
  params: ContentDescriptor[];
  result: ContentDescriptor;
  description?: string;
  "x-namespace": string;
  /** Whether it answers on this node (namespace and per-method settings, docs/rpc.md §1). */
  "x-enabled": boolean;
  /** Why a registered stub answers -32601 (docs/rpc.md §4.7). */
  "x-unsupported"?: string;
}

/** The whole document. */
export interface OpenRpcDocument {
  openrpc: string;
  info: {title: string; version: string; description: string};
  methods: OpenRpcMethod[];
}

const UNDESCRIBED_PARAM = "any JSON value as far as this document says; docs/rpc.md §4 has the accepted forms";
const UNDESCRIBED_RESULT = "not described here; docs/rpc.md §4.7 has the result of each method";

/** The document of `methods` (the registry's entries) for a node of version `version`. */
export function openRpcDocument(methods: readonly RegisteredMethod[], version: string): OpenRpcDocument {
  return {
    openrpc: OPENRPC_VERSION,
    info: {
      title: "xchain",
      version,
      description: "The JSON-RPC methods of this xchain node, with whether each is enabled here (docs/rpc.md)",
    },
    methods: methods.map(describeMethod),
  };
}

function describeMethod({name, namespace, method, status}: RegisteredMethod): OpenRpcMethod {
  const described: OpenRpcMethod = {
    name,
    paramStructure: "by-position",
    params: (method.params ?? []).map((p) => ({
      name: p.name,
      required: p.required,
      schema: p.schema ?? ANY_SCHEMA,
      ...(p.schema === undefined ? {description: UNDESCRIBED_PARAM} : {}),
    })),
    result: {
      name: "result",
      schema: method.result ?? ANY_SCHEMA,
      ...(method.result === undefined ? {description: UNDESCRIBED_RESULT} : {}),
    },
    "x-namespace": namespace,
    "x-enabled": status === "enabled",
  };
  if (method.unsupported !== undefined) {
    described.description = `not available: ${method.unsupported}`;
    described["x-unsupported"] = method.unsupported;
  }
  return described;
}
