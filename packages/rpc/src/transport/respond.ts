/**
 * One body through dispatch for either transport, within the time budget and the response size
 * cap: past `requestTimeoutMs` (a batch as a whole) or over `maxResponseBytes` the answer is
 * -32011 (docs/protocol/errors.md). The request's signal is aborted on timeout, so long handlers stop working.
 */

import type {RpcClient} from "../jsonrpc/client.ts";
import {type DispatchOptions, dispatch} from "../jsonrpc/dispatch.ts";
import {RpcError} from "../jsonrpc/errors.ts";
import {serializeBody} from "../jsonrpc/rawJson.ts";
import type {Connection} from "../jsonrpc/registry.ts";
import type {RpcOptions} from "../options.ts";

/** What a transport sends back: no payload when only notifications came in. */
export interface Reply {
  httpStatus: number;
  /** UTF-8 JSON text. */
  payload: Buffer | undefined;
}

/** The limits a reply is built under. */
export type ReplyLimits = Pick<RpcOptions, "requestTimeoutMs" | "maxResponseBytes">;

/** A whole response carrying only `error`, id null. */
export const errorPayload = (error: RpcError): Buffer =>
  Buffer.from(JSON.stringify({jsonrpc: "2.0", id: null, error: error.toObject()}));

/** Dispatches `text`; `clientGone` aborts the work when the client disconnects. */
export async function reply(
  text: string,
  dispatchOptions: DispatchOptions,
  limits: ReplyLimits,
  transport: {kind: "http" | "ws"; client: RpcClient; connection?: Connection; clientGone: AbortSignal},
): Promise<Reply> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  transport.clientGone.addEventListener("abort", abort, {once: true});
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve("timeout");
    }, limits.requestTimeoutMs);
  });
  try {
    const context = {
      transport: transport.kind,
      client: transport.client,
      signal: controller.signal,
      connection: transport.connection,
    };
    const result = await Promise.race([dispatch(text, dispatchOptions, context), timedOut]);
    if (result === "timeout") return {httpStatus: 200, payload: errorPayload(RpcError.timeout())};
    if (result.body === undefined) return {httpStatus: result.httpStatus, payload: undefined};
    const payload = serializeBody(result.body);
    if (payload.length > limits.maxResponseBytes) {
      return {httpStatus: 200, payload: errorPayload(RpcError.responseTooLarge(limits.maxResponseBytes))};
    }
    return {httpStatus: result.httpStatus, payload};
  } finally {
    clearTimeout(timer);
    transport.clientGone.removeEventListener("abort", abort);
  }
}
