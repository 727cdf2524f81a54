/**
 * A body over its key's rate, or its client address's (docs/gateway.md): HTTP 429 with
 * `Retry-After`, and each request of the body answered -32005 under its own id, so that a client
 * matching answers by id (a WebSocket one above all) is not left waiting.
 */
import {RpcError} from "../jsonrpc/errors.ts";
import {errorResponse, parseRequest} from "../jsonrpc/message.ts";
import type {KeyAccess} from "./keyAccess.ts";

/** The answer to a body refused for its key's rate. */
export interface RateRefusal {
  httpStatus: 429;
  payload: Buffer;
  /** Whole seconds, at least 1: the `Retry-After` header. */
  retryAfterSeconds: number;
}

/** How many requests a parsed body holds: what it takes from its key's bucket. */
export function requestCount(raw: unknown): number {
  return Array.isArray(raw) ? raw.length : 1;
}

/** Takes the body's requests from the key's bucket; the refusal when the key is over its rate. */
export function checkRate(access: KeyAccess, raw: unknown): RateRefusal | undefined {
  return rateRefusal(
    raw,
    access.take(requestCount(raw)),
    () => `${access.limits.requestsPerSecond} requests/s for API key ${access.id}`,
  );
}

/**
 * The refusal of a body whose requests had to wait `waitMs` for their tokens (0: taken, no refusal);
 * `limit` names the limit in the -32005 message.
 */
export function rateRefusal(raw: unknown, waitMs: number, limit: () => string): RateRefusal | undefined {
  if (waitMs === 0) return undefined;
  const error = RpcError.limitExceeded(limit());
  const answer = (element: unknown) => {
    const parsed = parseRequest(element);
    return errorResponse(parsed.id, error);
  };
  const body = Array.isArray(raw) ? raw.map(answer) : answer(raw);
  return {
    httpStatus: 429,
    payload: Buffer.from(JSON.stringify(body)),
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
  };
}
