/** What the RPC server tells of the requests it answers (`RpcServer.events`: the node's metrics). */

/**
 * An answered request. `method` is a registered method's name or `"unknown"`, so that what a
 * caller sends cannot grow the set of names; `failed` when the answer is an error; `keyId` the
 * caller's short API key id when one is known.
 */
export interface RequestEvent {
  method: string;
  durationMs: number;
  failed: boolean;
  keyId?: string;
}

/**
 * A body refused for its sender's rate (docs/gateway.md §3), before any of it ran: `requests` is what it
 * held (one for a body that did not parse), `keyId` the API key's id when the sender is a key.
 */
export interface RateLimitedEvent {
  requests: number;
  keyId?: string;
}

/** The RPC server's events; listeners run synchronously on the request path and must not throw. */
export interface RpcEvents {
  /** After every answered request, notifications included; requests are timed only while someone listens. */
  request: [RequestEvent];
  /** After a JSON body was refused for its sender's rate (HTTP 429, or 400 for a batch over the burst). */
  rateLimited: [RateLimitedEvent];
}
