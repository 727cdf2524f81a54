/**
 * JSON-RPC 2.0 messages: checking one request object, and building responses. rskj runs jsonrpc4j
 * in backwards-compatible mode, so a missing `jsonrpc` member is tolerated (docs/protocol/errors.md).
 */
import {RpcError, type RpcErrorObject} from "./errors.ts";

/** A request id: echoed in the response. */
export type JsonRpcId = string | number | null;

/** A checked request. */
export interface JsonRpcRequest {
  method: string;
  /** Positional parameters; empty when the request had none. */
  params: unknown[];
  id: JsonRpcId;
  /** No `id` member: the caller wants no response. */
  notification: boolean;
}

/** A response object. */
export type JsonRpcResponse =
  | {jsonrpc: "2.0"; id: JsonRpcId; result: unknown}
  | {jsonrpc: "2.0"; id: JsonRpcId; error: RpcErrorObject};

/** The outcome of checking one request: the request itself (one object per request), or the error to answer with. */
export type ParsedRequest = (JsonRpcRequest & {ok: true}) | {ok: false; id: JsonRpcId; error: RpcError};

function isId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** Checks one element of a body (a request object); never throws. */
export function parseRequest(raw: unknown): ParsedRequest {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return {ok: false, id: null, error: RpcError.invalidRequest()};
  }
  const message = raw as Record<string, unknown>;
  const id = isId(message.id) ? message.id : null;
  if (message.id !== undefined && !isId(message.id)) {
    return {
      ok: false,
      id: null,
      error: RpcError.invalidRequest("invalid request: id must be a string, number or null"),
    };
  }
  if (message.jsonrpc !== undefined && message.jsonrpc !== "2.0") {
    return {ok: false, id, error: RpcError.invalidRequest('invalid request: jsonrpc must be "2.0"')};
  }
  if (typeof message.method !== "string") {
    return {ok: false, id, error: RpcError.invalidRequest("invalid request: method must be a string")};
  }
  const params = message.params ?? [];
  if (!Array.isArray(params)) {
    return {
      ok: false,
      id,
      error: RpcError.invalidParams("params must be an array (named parameters are not supported)"),
    };
  }
  return {ok: true, method: message.method, params, id, notification: message.id === undefined};
}

/** A success response. */
export function resultResponse(id: JsonRpcId, result: unknown): JsonRpcResponse {
  return {jsonrpc: "2.0", id, result: result === undefined ? null : result};
}

/** An error response. */
export function errorResponse(id: JsonRpcId, error: RpcError): JsonRpcResponse {
  return {jsonrpc: "2.0", id, error: error.toObject()};
}
