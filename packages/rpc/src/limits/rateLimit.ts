/**
 * A body over its key's rate, or its client address's (docs/gateway.md §3): HTTP 429 with
 * `Retry-After`, and each request of the body answered -32005 under its own id, so that a client
 * matching answers by id (a WebSocket one above all) is not left waiting. A body takes one token
 * per request; a body refused before it runs (not JSON, too deep, an empty or too large batch,
 * over `maxBodyBytes`) takes one, so that garbage is not free. A batch of more requests than the
 * burst could never pass: it is refused at once with HTTP 400 naming the burst, and takes one token.
 */
import {RpcError} from "../jsonrpc/errors.ts";
import {errorResponse, parseRequest} from "../jsonrpc/message.ts";

/** The answer to a body refused for its sender's rate. */
export interface RateRefusal {
  /** 429 over the rate; 400 for a batch larger than the burst, which waiting cannot help. */
  httpStatus: 400 | 429;
  payload: Buffer;
  /** Whole seconds, at least 1: the `Retry-After` header (not set with 400). */
  retryAfterSeconds?: number;
}

/** A sender's rate limit, as its -32005 message names it. */
export interface SenderLimit {
  requestsPerSecond: number;
  burst: number;
  /** `API key 3fa2c1d0`, `address 203.0.113.7`. */
  sender(): string;
}

/** What a body refused before it runs (`raw` undefined) costs its sender. */
export const REFUSED_BODY_COST = 1;

/** How many tokens a body costs: one per request of a parsed body, `REFUSED_BODY_COST` for a refused one. */
export function requestCount(raw: unknown): number {
  if (raw === undefined) return REFUSED_BODY_COST;
  return Array.isArray(raw) ? raw.length : 1;
}

/**
 * Takes `raw`'s tokens with `take` (which answers 0 when taken, otherwise the milliseconds to wait,
 * `Infinity` past the burst) and builds the refusal, undefined when taken.
 */
export function rateRefusal(raw: unknown, take: (cost: number) => number, limit: SenderLimit): RateRefusal | undefined {
  const cost = requestCount(raw);
  const waitMs = take(cost);
  if (waitMs === 0) return undefined;
  if (waitMs === Number.POSITIVE_INFINITY) {
    // Never servable: refused at once, and charged like any other refused body.
    take(REFUSED_BODY_COST);
    const error = RpcError.limitExceeded(
      `a batch of ${cost} requests is more than the burst of ${limit.burst} for ${limit.sender()}`,
    );
    return {httpStatus: 400, payload: answerEach(raw, error)};
  }
  return {
    httpStatus: 429,
    payload: answerEach(raw, RpcError.limitExceeded(`${limit.requestsPerSecond} requests/s for ${limit.sender()}`)),
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
  };
}

/** `error` for each request of `raw`, under its id (id null for a body that did not parse). */
export function answerEach(raw: unknown, error: RpcError): Buffer {
  const answer = (element: unknown) => errorResponse(parseRequest(element).id, error);
  return Buffer.from(JSON.stringify(Array.isArray(raw) ? raw.map(answer) : answer(raw)));
}
