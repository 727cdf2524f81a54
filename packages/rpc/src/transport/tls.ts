/**
 * `rpc.tls.cert` and `rpc.tls.key` (docs/gateway.md "TLS"): PEM files read once at start, after which
 * both listeners serve HTTPS and WSS. Only one of the two set, a file that cannot be read, or a
 * certificate and key that do not parse or do not match is a `TlsConfigError` naming the setting,
 * so that the node refuses to start rather than serve plain HTTP or fail on the first handshake.
 */
import {readFile} from "node:fs/promises";
import type {Server} from "node:https";
import {Socket} from "node:net";
import {createSecureContext, type TLSSocket} from "node:tls";
import {NodeError} from "@xchain/utils";
import type {RpcTlsOptions} from "../options.ts";

/** What the HTTPS servers are given. */
export interface TlsCredentials {
  cert: Buffer;
  key: Buffer;
}

/** Each reason the TLS settings are unusable. */
export enum TlsConfigErrorCode {
  /** Only one of `rpc.tls.cert` and `rpc.tls.key` is set. */
  UNPAIRED = "TLS_UNPAIRED",
  /** A file cannot be read. */
  UNREADABLE = "TLS_UNREADABLE",
  /** A file is not PEM of its kind, or the key does not match the certificate. */
  INVALID = "TLS_INVALID",
}

/** Each code with the setting it names. */
export type TlsConfigErrorType = {code: TlsConfigErrorCode; setting: string};

/** The TLS settings are unusable; the message is one line naming the setting. */
export class TlsConfigError extends NodeError<TlsConfigErrorType> {}

/** Reads and checks the certificate and key; undefined when neither is set (plain HTTP and WS). */
export async function loadTlsCredentials(options: RpcTlsOptions): Promise<TlsCredentials | undefined> {
  if (options.cert === undefined && options.key === undefined) return undefined;
  if (options.cert === undefined) throw unpaired("rpc.tls.key", "rpc.tls.cert");
  if (options.key === undefined) throw unpaired("rpc.tls.cert", "rpc.tls.key");
  const cert = await readPem("rpc.tls.cert", options.cert);
  const key = await readPem("rpc.tls.key", options.key);
  check("rpc.tls.cert", options.cert, "not a PEM certificate", {cert});
  check("rpc.tls.key", options.key, "not a PEM private key", {key});
  check("rpc.tls.key", options.key, "does not match rpc.tls.cert", {cert, key});
  return {cert, key};
}

async function readPem(setting: string, path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (e) {
    throw new TlsConfigError(
      {code: TlsConfigErrorCode.UNREADABLE, setting},
      `${setting}: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
}

function check(setting: string, path: string, what: string, parts: {cert?: Buffer; key?: Buffer}): void {
  try {
    createSecureContext(parts);
  } catch (e) {
    throw new TlsConfigError(
      {code: TlsConfigErrorCode.INVALID, setting},
      `${setting}: ${path} ${what} (${(e as Error).message})`,
    );
  }
}

function unpaired(setting: string, missing: string): TlsConfigError {
  return new TlsConfigError({code: TlsConfigErrorCode.UNPAIRED, setting}, `${setting} is set without ${missing}`);
}

/** The answer to plain HTTP on a TLS port: a request a browser or curl shows, not an empty reply. */
const PLAIN_HTTP_ANSWER =
  "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n" +
  "This port speaks HTTPS (TLS is on, rpc.tls.cert): use https:// or wss:// with this host and port.\n";

/**
 * Answers plain HTTP sent to `server` with a 400 saying the port speaks HTTPS, as nginx's 497 does,
 * instead of closing the connection without a word. OpenSSL recognises an HTTP request line where
 * a TLS record should be (`ERR_SSL_HTTP_REQUEST`); the answer goes on the TCP socket under the TLS
 * one (`_parent`, which Node does not document: without it the connection just closes, as before).
 */
export function answerPlainHttp(server: Server): void {
  server.on("tlsClientError", (error: NodeJS.ErrnoException, tlsSocket: TLSSocket) => {
    if (error.code !== "ERR_SSL_HTTP_REQUEST") return;
    const raw = (tlsSocket as unknown as {_parent?: unknown})._parent;
    if (raw instanceof Socket && raw.writable) raw.end(PLAIN_HTTP_ANSWER);
  });
}
