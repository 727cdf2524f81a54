/**
 * `rpc.tls.cert` and `rpc.tls.key` (docs/gateway.md "TLS"): PEM files read once at start, after which
 * both listeners serve HTTPS and WSS. Only one of the two set, a file that cannot be read, or a
 * certificate and key that do not parse or do not match is a `TlsConfigError` naming the setting,
 * so that the node refuses to start rather than serve plain HTTP or fail on the first handshake.
 */
import {readFile} from "node:fs/promises";
import {createSecureContext} from "node:tls";
import type {RpcTlsOptions} from "../options.ts";

/** What the HTTPS servers are given. */
export interface TlsCredentials {
  cert: Buffer;
  key: Buffer;
}

/** The TLS settings are unusable; the message is one line naming the setting. */
export class TlsConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TlsConfigError";
  }
}

/** Reads and checks the certificate and key; undefined when neither is set (plain HTTP and WS). */
export async function loadTlsCredentials(options: RpcTlsOptions): Promise<TlsCredentials | undefined> {
  if (options.cert === undefined && options.key === undefined) return undefined;
  if (options.cert === undefined) throw new TlsConfigError("rpc.tls.key is set without rpc.tls.cert");
  if (options.key === undefined) throw new TlsConfigError("rpc.tls.cert is set without rpc.tls.key");
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
    throw new TlsConfigError(`${setting}: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? "error"})`);
  }
}

function check(setting: string, path: string, what: string, parts: {cert?: Buffer; key?: Buffer}): void {
  try {
    createSecureContext(parts);
  } catch (e) {
    throw new TlsConfigError(`${setting}: ${path} ${what} (${(e as Error).message})`);
  }
}
