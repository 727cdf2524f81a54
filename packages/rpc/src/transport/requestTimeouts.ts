/**
 * The timeouts of the HTTP server under each RPC listener (docs/rpc.md §4.1): a request's headers
 * and body, and a WebSocket handshake, must arrive within `bodyTimeoutMs`. Node 20 cuts a request
 * still arriving by its `headersTimeout` even once the headers are in, and checks every
 * `connectionsCheckingInterval` (default 30 s): with the defaults (60 s) a slow body or handshake was
 * held up to 90 s. Both timeouts are the body timeout, checked every second (sooner for a short one).
 */
import type {ServerOptions} from "node:http";

/** How often Node checks the connections for `requestTimeout` / `headersTimeout`: a cut is at most this late. */
const TIMEOUT_CHECK_MS = 1_000;

/** The server options that cut a request or handshake slower than `bodyTimeoutMs`. */
export function requestTimeouts(
  bodyTimeoutMs: number,
): Required<Pick<ServerOptions, "requestTimeout" | "headersTimeout" | "connectionsCheckingInterval">> {
  return {
    requestTimeout: bodyTimeoutMs,
    headersTimeout: bodyTimeoutMs,
    connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, Math.ceil(bodyTimeoutMs / 4)),
  };
}
