/**
 * JSON-RPC over HTTP (docs/rpc.md §4.1): POST with a JSON content type, bodies up to `maxBodyBytes`
 * (larger: 413 and the connection closed), CORS for the origins `corsOrigins` matches (the rules of
 * `ws.origins`, docs/rpc.md §5.4), HTTP 400 only for the
 * top-level errors of docs/protocol/errors.md. A `Host` outside `http.vhosts` gets 403 first (docs/rpc.md §5.4). A client that disconnects mid-request aborts its work; nothing is
 * written to a closed response. A request whose headers and body take longer than `bodyTimeoutMs`
 * gets 408 and is disconnected. Dropped clients are debug lines and a warn summary (`DroppedClients`).
 * Each request is admitted first (`Admission`): with the API-key gateway on, only POST `/<API key>`
 * is served, any other path gets 401 before the body is read, and a key over its rate 429 with
 * `Retry-After` (docs/gateway.md). Without it, a client address over its rate gets the same 429, and
 * its connections beyond its cap are closed (`IpLimits`).
 * With TLS credentials the server speaks HTTPS.
 */
import {createServer, type IncomingMessage, type Server, type ServerResponse} from "node:http";
import {createServer as createHttpsServer, type Server as HttpsServer} from "node:https";
import type {Logger} from "@xchain/utils";
import type {HealthProbe} from "../deps.ts";
import {clientOf} from "../jsonrpc/client.ts";
import type {DispatchOptions} from "../jsonrpc/dispatch.ts";
import {RpcError} from "../jsonrpc/errors.ts";
import {isPending} from "../jsonrpc/pending.ts";
import type {Admission} from "../limits/admission.ts";
import type {IpLimits} from "../limits/ipLimits.ts";
import type {RpcOptions} from "../options.ts";
import {browserRefusal, isOriginAllowed} from "./browserGuard.ts";
import {capConnections} from "./connectionCap.ts";
import {requestsOfSocket} from "./connectionRequests.ts";
import {DroppedClients} from "./droppedClients.ts";
import {EXPOSED_HEADERS, type HeadView, jsonHeadersOfHead} from "./headHeaders.ts";
import {healthAnswer} from "./health.ts";
import {requestTimeouts} from "./requestTimeouts.ts";
import {errorPayload, type Reply, type ReplyLimits, reply} from "./respond.ts";
import {answerPlainHttp, type TlsCredentials} from "./tls.ts";

/** What the HTTP transport needs. */
export type HttpTransportOptions = ReplyLimits &
  Pick<RpcOptions, "maxBodyBytes" | "http" | "bodyTimeoutMs"> & {
    /** Origin rules answered with CORS headers (`corsOriginRules`: the network's default resolved). */
    corsOrigins: readonly string[];
    /** `GET /ready`. */
    health: HealthProbe;
    /** The node's best block, named in every JSON-RPC answer's headers (`headHeaders.ts`). */
    head: () => HeadView;
    /** Whom each request runs for: the gateway, or the node's limits per address (docs/gateway.md). */
    admission: Admission;
    /** Set when the per-address connection cap applies (no gateway, docs/gateway.md §6). */
    addressLimits?: IpLimits;
    /** HTTPS with these (`loadTlsCredentials`). */
    tlsCredentials?: TlsCredentials;
  };

/** An HTTP(S) server answering JSON-RPC on any path; call `listen` on it. */
export function createHttpTransport(
  dispatchOptions: DispatchOptions,
  options: HttpTransportOptions,
  logger: Logger,
): Server {
  const dropped = new DroppedClients(logger);
  const timeouts = requestTimeouts(options.bodyTimeoutMs);
  const server: Server = options.tlsCredentials
    ? createHttpsServer({...timeouts, ...options.tlsCredentials})
    : createServer(timeouts);
  if (options.tlsCredentials) answerPlainHttp(server as HttpsServer);
  if (options.addressLimits) capConnections(server, options.addressLimits, dropped);
  const jsonHeaders = jsonHeadersOfHead(options.head);
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const fail = (error: unknown) => {
      logger.error({err: error}, "rpc http request failed");
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end();
    };
    try {
      handle(req, res, dispatchOptions, options, dropped, jsonHeaders, fail);
    } catch (error) {
      fail(error);
    }
  });
  server.on("close", () => dropped.flush());
  return server;
}

/**
 * Answers one HTTP request; `fail` gets what throws once the body is in. No promise is made for a
 * body answered synchronously (the fast path, `isPending`): the body comes by callback.
 */
function handle(
  req: IncomingMessage,
  res: ServerResponse,
  dispatchOptions: DispatchOptions,
  options: HttpTransportOptions,
  dropped: DroppedClients,
  jsonHeaders: () => Readonly<Record<string, string>>,
  fail: (error: unknown) => void,
): void {
  // The probes come before the Host check: a load balancer asks by address, and the answer
  // (alive, ready) tells a page nothing worth a DNS-rebinding defence (docs/rpc.md §5).
  const probe = req.method === "GET" ? healthAnswer(req.url, options.health) : undefined;
  if (probe) {
    res.writeHead(probe.status, {"Content-Type": "application/json", "Cache-Control": "no-store"}).end(probe.body);
    return;
  }
  const refusal = browserRefusal(req, "http", options.http);
  if (refusal) {
    // The body is not read; the connection ends with the answer.
    res.writeHead(403, {Connection: "close", "Content-Type": "application/json"}).end(errorPayload(refusal));
    return;
  }
  const cors = corsHeaders(req, options.corsOrigins);
  const sender = options.admission.admit(req.url);
  if (sender instanceof RpcError) {
    // Counted for the summary only: a flood of wrong keys writes no line per request, and the key is never logged.
    dropped.count("refused API key");
    res.writeHead(401, {...cors, Connection: "close", "Content-Type": "application/json"}).end(errorPayload(sender));
    return;
  }
  if (req.method === "OPTIONS") {
    res
      .writeHead(204, {...cors, "Access-Control-Allow-Methods": "POST, OPTIONS", "Access-Control-Max-Age": "600"})
      .end();
    return;
  }
  if (req.method !== "POST") {
    res.writeHead(405, {...cors, Allow: "POST, OPTIONS", "Content-Type": "text/plain"}).end("only POST is supported\n");
    return;
  }
  if (!/^application\/json(\s*;|$)/i.test(req.headers["content-type"] ?? "")) {
    res.writeHead(415, {...cors, "Content-Type": "text/plain"}).end("Content-Type must be application/json\n");
    return;
  }
  readBody(req, options.maxBodyBytes, (body) => {
    try {
      if (body === undefined) {
        refuseBody(req, res, cors, dropped, () => sender.checkRate(undefined, clientOf(req.socket)));
        return;
      }
      const answer = reply(body, dispatchOptions, options, {
        kind: "http",
        client: sender.clientOf(clientOf(req.socket)),
        requests: requestsOfSocket(req.socket),
        sender,
      });
      if (isPending(answer)) answer.then((ready) => send(res, cors, jsonHeaders(), ready)).catch(fail);
      else send(res, cors, jsonHeaders(), answer);
    } catch (error) {
      fail(error);
    }
  });
}

/**
 * A body that never came whole: the client left (a debug line), or it was too large (413, connection
 * closed; `charge` takes its token from the sender, docs/gateway.md §3).
 */
function refuseBody(
  req: IncomingMessage,
  res: ServerResponse,
  cors: Record<string, string> | undefined,
  dropped: DroppedClients,
  charge: () => void,
): void {
  if (res.destroyed) {
    dropped.record(dropReason(req), {client: req.socket.remoteAddress});
    return;
  }
  charge();
  const {socket} = res;
  // Transport abuse: refuse and drop the connection rather than read the rest.
  res.writeHead(413, {...cors, Connection: "close", "Content-Type": "text/plain"}).end("request body too large\n");
  res.on("finish", () => socket?.destroy());
}

/** Writes a JSON-RPC answer with `jsonHeaders` (its type and the head), unless the client has gone meanwhile. */
function send(
  res: ServerResponse,
  cors: Record<string, string> | undefined,
  jsonHeaders: Readonly<Record<string, string>>,
  answer: Reply,
): void {
  if (res.destroyed || res.writableEnded) return;
  let headers = jsonHeaders;
  if (cors !== undefined || answer.retryAfterSeconds !== undefined) {
    const extra: Record<string, string> = {...cors, ...jsonHeaders};
    if (answer.retryAfterSeconds !== undefined) extra["Retry-After"] = String(answer.retryAfterSeconds);
    headers = extra;
  }
  res.writeHead(answer.httpStatus, headers).end(answer.payload ?? "");
}

/**
 * Calls `done` once with the body as text, or with undefined when it exceeds `maxBytes` (by its
 * Content-Length or while reading; the rest is not read) or the client went away before sending it all.
 */
function readBody(req: IncomingMessage, maxBytes: number, done: (body: string | undefined) => void): void {
  if (Number(req.headers["content-length"] ?? 0) > maxBytes) {
    done(undefined);
    return;
  }
  let settled = false;
  const settle = (body: string | undefined) => {
    if (settled) return;
    settled = true;
    done(body);
  };
  // Most bodies come in one chunk: it is decoded as it is, without a copy.
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let length = 0;
  const onData = (chunk: Buffer) => {
    length += chunk.length;
    if (length <= maxBytes) {
      if (first === undefined) first = chunk;
      else if (chunks === undefined) chunks = [first, chunk];
      else chunks.push(chunk);
      return;
    }
    req.off("data", onData);
    req.pause();
    settle(undefined);
  };
  const onGone = () => settle(undefined);
  // `on`, not `once`: only the first settlement counts anyway, and `once` wraps each listener in two more objects.
  req.on("data", onData);
  req.on("end", () => settle(chunks ? Buffer.concat(chunks).toString("utf8") : (first?.toString("utf8") ?? "")));
  req.on("close", onGone);
  // The client's side: it left, or Node cut it off at the timeout (the caller tells which).
  req.on("error", onGone);
}

/** Why a request's body never arrived: Node's timeout destroys the socket with its own error. */
function dropReason(req: IncomingMessage): string {
  const code = (req.socket.errored as NodeJS.ErrnoException | null)?.code;
  return code === "ERR_HTTP_REQUEST_TIMEOUT" ? "http body timeout" : "http client left";
}

/**
 * The CORS headers of an answer to a page of an allowed origin, which is echoed (`*` when any is
 * allowed); undefined (no object made) for any other request. A refused origin gets no headers, so
 * its page cannot read the answer; its preflight gets none either, so the browser sends nothing.
 */
function corsHeaders(req: IncomingMessage, allowed: readonly string[]): Record<string, string> | undefined {
  const origin = req.headers.origin;
  if (allowed.length === 0 || origin === undefined) return undefined;
  const allowOrigin = allowed.includes("*") ? "*" : isOriginAllowed(origin, allowed) ? origin : undefined;
  if (!allowOrigin) return undefined;
  return {
    "Access-Control-Allow-Origin": allowOrigin,
    "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "Content-Type",
    "Access-Control-Expose-Headers": EXPOSED_HEADERS,
    Vary: "Origin",
  };
}
