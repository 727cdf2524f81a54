/**
 * Browser-origin defences (docs/rpc.md §5.4), as geth's `--http.vhosts` and `--ws.origins`: the
 * `Host` header must name one of a listener's `vhosts` (the port ignored), which defeats DNS
 * rebinding, and a WebSocket handshake's `Origin`, when there is one, must match one of `origins`,
 * which keeps web pages from driving the node. `"*"` in either list allows anything.
 */
import type {IncomingMessage} from "node:http";
import {RpcError} from "../jsonrpc/errors.ts";

/** A host name, a dotted IPv4 or a bracketed IPv6, and an optional port; lower case. */
const HOST_AND_PORT = /^(\[[0-9a-f:.]+\]|[^\s:/?#@[\]]+)(?::(\d{1,5}))?$/;
/** An origin or an origin rule: optional `scheme://`, then the host and optional port, optional trailing `/`. */
const ORIGIN = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\[[0-9a-f:.]+\]|[^\s:/?#@[\]]+)(?::(\d{1,5}))?\/?$/;
const DEFAULT_PORTS: Readonly<Record<string, string>> = {http: "80", https: "443", ws: "80", wss: "443"};

interface OriginParts {
  scheme: string | undefined;
  host: string;
  port: string | undefined;
}

/** `::1` as `[::1]`, lower case: how a Host header writes an IPv6 address. */
function normalizeName(name: string): string {
  const lower = name.trim().toLowerCase();
  return lower.includes(":") && !lower.startsWith("[") ? `[${lower}]` : lower;
}

function parseOrigin(text: string): OriginParts | undefined {
  const match = ORIGIN.exec(text.trim().toLowerCase());
  if (!match) return undefined;
  const [, scheme, host = "", port] = match;
  return {scheme, host, port};
}

/** Whether a `Host` header value names one of `vhosts` (its port ignored); a missing Host is refused. */
export function isHostAllowed(host: string | undefined, vhosts: readonly string[]): boolean {
  if (vhosts.includes("*")) return true;
  const name = host === undefined ? undefined : HOST_AND_PORT.exec(host.trim().toLowerCase())?.[1];
  return name !== undefined && vhosts.some((allowed) => normalizeName(allowed) === name);
}

/**
 * Whether a handshake's `Origin` matches a rule of `origins`. No Origin (a client that is not a
 * browser) is allowed. A rule without scheme matches any scheme, one without port any port
 * (geth's rules): `localhost` allows `http://localhost:3000`, `http://localhost:3000` only that.
 */
export function isOriginAllowed(origin: string | undefined, origins: readonly string[]): boolean {
  if (origin === undefined || origins.includes("*")) return true;
  const browser = parseOrigin(origin);
  // A browser always sends a scheme; `null` (a sandboxed or file page) and anything odd are refused.
  if (browser?.scheme === undefined) return false;
  const browserPort = browser.port ?? DEFAULT_PORTS[browser.scheme];
  return origins.some((text) => {
    const rule = parseOrigin(text);
    if (!rule) return false;
    if (rule.scheme !== undefined && rule.scheme !== browser.scheme) return false;
    if (normalizeName(rule.host) !== browser.host) return false;
    return rule.port === undefined || rule.port === browserPort;
  });
}

/** The lists one listener checks: `origins` only on WebSocket. */
export interface BrowserGuard {
  vhosts: readonly string[];
  origins?: readonly string[];
}

/**
 * The -32600 error a refused request gets (sent with HTTP 403), or undefined when it may go on.
 * The message names the refused value and the key that would allow it (`rpc.<listener>.vhosts`).
 */
export function browserRefusal(
  req: IncomingMessage,
  listener: "http" | "ws",
  guard: BrowserGuard,
): RpcError | undefined {
  const {host, origin} = req.headers;
  // HTTP (no origins to check): a client sends the same Host again and again, so the last allowed one is remembered.
  if (guard.origins === undefined && host !== undefined && allowedHost.get(guard) === host) return undefined;
  if (!isHostAllowed(host, guard.vhosts)) {
    return RpcError.invalidRequest(
      host === undefined
        ? "invalid host specified: the request has no Host header"
        : `invalid host specified: ${host} is not in rpc.${listener}.vhosts`,
    );
  }
  if (guard.origins !== undefined && !isOriginAllowed(origin, guard.origins)) {
    return RpcError.invalidRequest(`origin not allowed: ${origin} is not in rpc.${listener}.origins`);
  }
  if (guard.origins === undefined && host !== undefined) allowedHost.set(guard, host);
  return undefined;
}

/** The last `Host` each guard allowed: the verdict depends on the Host and the guard's lists only. */
const allowedHost = new WeakMap<BrowserGuard, string>();
