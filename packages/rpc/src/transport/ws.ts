/**
 * JSON-RPC over WebSocket (docs/rpc.md §4.1, §4.8): text messages, and binary ones holding UTF-8 JSON
 * (`frameText`), through the same dispatch and answered as text, each at
 * most `maxBodyBytes` (larger: the `ws` library closes with 1009). A connection runs at most
 * `maxInFlightPerConnection` requests at a time; the messages already read beyond that wait, and
 * the socket is paused until they have started, so a flooding client slows itself down (TCP
 * backpressure) instead of queueing work without bound. A client that leaves more than
 * `maxWsBufferedBytes` unread is disconnected. Closing a connection ends its subscriptions. A
 * handshake whose `Host` is outside `ws.vhosts`, or whose `Origin` is outside `ws.origins`, is
 * refused with 403 before the upgrade (docs/rpc.md §5.4). Dropped clients are debug lines and a
 * warn summary (`DroppedClients`). A handshake is admitted first (`Admission`): with the API-key
 * gateway on, it is upgraded only at `/<API key>` (401 otherwise) and within the key's
 * `maxWsConnections` (429 beyond); a revoked key's
 * connections answer what they have read (running calls finish, the others get -32001) and are then
 * closed with 1008 (docs/gateway.md §1). Without it, a client address over its rate is
 * answered -32005 per message, and its connections beyond its cap are closed (`IpLimits`). With TLS
 * credentials the handshake is over HTTPS (WSS). A handshake must arrive within `bodyTimeoutMs`.
 */
import {createServer, type IncomingMessage, type Server, type ServerResponse} from "node:http";
import {createServer as createHttpsServer, type Server as HttpsServer} from "node:https";
import type {Duplex} from "node:stream";
import type {Logger} from "@xchain/utils";
import {type RawData, WebSocket, WebSocketServer} from "ws";
import {clientOf, type RpcClient} from "../jsonrpc/client.ts";
import type {DispatchOptions} from "../jsonrpc/dispatch.ts";
import {RpcError} from "../jsonrpc/errors.ts";
import type {Connection} from "../jsonrpc/registry.ts";
import type {Admission, Sender} from "../limits/admission.ts";
import type {IpLimits} from "../limits/ipLimits.ts";
import {answerEach} from "../limits/rateLimit.ts";
import type {RpcOptions} from "../options.ts";
import {browserRefusal} from "./browserGuard.ts";
import {capConnections} from "./connectionCap.ts";
import {ConnectionRequests} from "./connectionRequests.ts";
import {DroppedClients} from "./droppedClients.ts";
import {frameText} from "./frameText.ts";
import {requestTimeouts} from "./requestTimeouts.ts";
import {errorPayload, type Reply, type ReplyLimits, reply} from "./respond.ts";
import {answerPlainHttp, type TlsCredentials} from "./tls.ts";

/** WebSocket close code for a revoked API key: 1008, policy violation. */
const REVOKED_CLOSE_CODE = 1008;

/** What the WebSocket transport needs. */
export type WsTransportOptions = ReplyLimits &
  Pick<RpcOptions, "maxBodyBytes" | "maxInFlightPerConnection" | "maxWsBufferedBytes" | "ws" | "bodyTimeoutMs"> & {
    /** Whom each request runs for: the gateway, or the node's limits per address (docs/gateway.md). */
    admission: Admission;
    /** Set when the per-address connection cap applies (no gateway, docs/gateway.md §6). */
    addressLimits?: IpLimits;
    /** WSS with these (`loadTlsCredentials`). */
    tlsCredentials?: TlsCredentials;
  };

/** An HTTP server that upgrades to WebSocket (426 otherwise), and how to drop its clients. */
export interface WsTransport {
  server: Server;
  /** Closes every open connection (their subscriptions end). */
  closeClients(): void;
  /** Open connections. */
  connectionCount(): number;
}

/** Creates the WebSocket transport; call `listen` on its server. */
export function createWsTransport(
  dispatchOptions: DispatchOptions,
  options: WsTransportOptions,
  logger: Logger,
): WsTransport {
  const notUpgraded = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(426, {"Content-Type": "text/plain", Upgrade: "websocket"}).end("WebSocket only\n");
  };
  // A handshake slower than `bodyTimeoutMs` is cut, as an HTTP request is.
  const timeouts = requestTimeouts(options.bodyTimeoutMs);
  const server: Server = options.tlsCredentials
    ? createHttpsServer({...timeouts, ...options.tlsCredentials}, notUpgraded)
    : createServer(timeouts, notUpgraded);
  // Upgrades are taken here rather than by `ws`, so that a refusal can carry a JSON-RPC body.
  const dropped = new DroppedClients(logger);
  if (options.tlsCredentials) answerPlainHttp(server as HttpsServer);
  if (options.addressLimits) capConnections(server, options.addressLimits, dropped);
  const wss = new WebSocketServer({noServer: true, maxPayload: options.maxBodyBytes, perMessageDeflate: false});
  server.on("upgrade", (req, socket, head) => {
    const refusal = browserRefusal(req, "ws", options.ws);
    if (refusal) {
      logger.debug({host: req.headers.host, origin: req.headers.origin}, "rpc ws handshake refused");
      refuseUpgrade(socket, "403 Forbidden", errorPayload(refusal));
      return;
    }
    const sender = options.admission.admit(req.url);
    if (sender instanceof RpcError) {
      dropped.count("refused API key");
      refuseUpgrade(socket, "401 Unauthorized", errorPayload(sender));
      return;
    }
    const tooMany = sender.connectionRefusal();
    if (tooMany) {
      refuseUpgrade(socket, "429 Too Many Requests", errorPayload(tooMany));
      return;
    }
    const client = sender.clientOf(clientOf(req.socket));
    wss.handleUpgrade(req, socket, head, (ws) =>
      serve(ws, {client, sender}, dispatchOptions, options, logger, dropped),
    );
  });
  server.on("close", () => dropped.flush());
  return {
    server,
    closeClients: () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
    connectionCount: () => wss.clients.size,
  };
}

/** Answers a handshake with `status` and the JSON-RPC error, then closes the socket. */
function refuseUpgrade(socket: Duplex, status: string, body: Buffer): void {
  // The HTTP server no longer watches an upgrading socket: a client reset must not go unhandled.
  socket.on("error", () => socket.destroy());
  socket.once("finish", () => socket.destroy());
  socket.end(
    Buffer.concat([
      Buffer.from(
        `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\n\r\n`,
      ),
      body,
    ]),
  );
}

function serve(
  socket: WebSocket,
  {client, sender}: {client: RpcClient; sender: Sender},
  dispatchOptions: DispatchOptions,
  options: WsTransportOptions,
  logger: Logger,
  dropped: DroppedClients,
): void {
  const gone = new ConnectionRequests();
  const closeListeners: (() => void)[] = [];
  // Messages read but not yet running: bounded, since the socket is paused while it is not empty.
  const waiting: string[] = [];
  let inFlight = 0;

  const send = (payload: string | Buffer) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    if (socket.bufferedAmount > options.maxWsBufferedBytes) {
      dropped.record("ws client too slow", {client: client.address, bufferedBytes: socket.bufferedAmount});
      socket.terminate();
      return;
    }
    // JSON-RPC answers are text frames, whether the payload comes as a string or as UTF-8 bytes.
    socket.send(payload, {binary: false});
  };
  // Set when the key is revoked: nothing new runs, and the socket closes once the running calls are answered.
  let revoked: RpcError | undefined;
  const closeWhenAnswered = () => {
    if (inFlight === 0) socket.close(REVOKED_CLOSE_CODE, "API key revoked");
  };
  const connection: Connection = {
    notify: (method, params) => {
      if (revoked === undefined) send(JSON.stringify({jsonrpc: "2.0", method, params}));
    },
    onClose: (listener) => {
      closeListeners.push(listener);
    },
  };
  sender.attach(connection, () => {
    revoked = RpcError.unauthorized(`API key ${sender.id} revoked`);
    for (const text of waiting.splice(0)) send(refusalOf(text, revoked));
    // Read what the client sent meanwhile, so that it is answered too.
    socket.resume();
    closeWhenAnswered();
  });
  const pump = () => {
    while (inFlight < options.maxInFlightPerConnection && waiting.length > 0 && !gone.closed) {
      const text = waiting.shift() as string;
      inFlight++;
      // A promise whatever the answer: a synchronous throw is logged like a failed request.
      new Promise<Reply>((resolve) =>
        resolve(reply(text, dispatchOptions, options, {kind: "ws", client, connection, requests: gone, sender})),
      )
        .then((answer) => {
          if (answer.payload !== undefined) send(answer.payload);
        })
        .catch((error) => logger.error({err: error}, "rpc ws request failed"))
        .finally(() => {
          inFlight--;
          if (revoked) closeWhenAnswered();
          // The next one starts in a later turn of the event loop, so that other sockets are read in between.
          else setImmediate(pump);
        });
    }
    if (waiting.length === 0 && socket.isPaused) socket.resume();
  };

  socket.on("message", (data: RawData, isBinary: boolean) => {
    // With the default binaryType ("nodebuffer") a message is one Buffer. A binary one is read as UTF-8 JSON
    // (web3.py sends those); one that is not UTF-8 reads as "", answered -32700 as any text that is not JSON.
    const text = frameText(data as Buffer, isBinary) ?? "";
    if (revoked) {
      send(refusalOf(text, revoked));
      return;
    }
    waiting.push(text);
    if (inFlight >= options.maxInFlightPerConnection) socket.pause();
    pump();
  });
  socket.on("error", (error) => {
    // A message over `maxBodyBytes` (the connection closes with 1009) costs its sender a token too.
    if ((error as NodeJS.ErrnoException).code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") {
      sender.checkRate(undefined, client);
    }
    dropped.record("ws connection error", {client: client.address, err: error});
  });
  socket.on("close", () => {
    gone.close();
    waiting.length = 0;
    for (const listener of closeListeners.splice(0)) listener();
  });
}

/** `error` for each request of a message (id null when it is not JSON). */
function refusalOf(text: string, error: RpcError): Buffer {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = undefined;
  }
  return answerEach(raw, error);
}
