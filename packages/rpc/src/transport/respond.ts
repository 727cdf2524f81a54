/**
 * One body through dispatch for either transport, within the time budget and the response size
 * caps: past its time budget (a batch as a whole) or over `maxResponseBytes` the answer is
 * -32011 (docs/protocol/errors.md), past the memory shared by all responses -32005 (docs/rpc.md §8),
 * each request answered with its own id and a batch's answered items kept (`BodyAnswer`).
 * The budget is `requestTimeoutMs`, or the longest budget of a method the body calls when longer
 * (tracing methods, `MethodRegistry.timeBudgetMs`).
 * The request's signal is aborted on timeout, so long handlers stop working; the work is tracked
 * until it has really ended, so that closing the server can wait for it.
 */

import {BodyAnswer} from "../jsonrpc/bodyAnswer.ts";
import type {RpcClient} from "../jsonrpc/client.ts";
import {type DispatchOptions, type DispatchResult, dispatchParsed, methodsOf, parseBody} from "../jsonrpc/dispatch.ts";
import {RpcError} from "../jsonrpc/errors.ts";
import {isPending} from "../jsonrpc/pending.ts";
import type {Principal, RequestLimits} from "../jsonrpc/principal.ts";
import type {Connection, RequestContext} from "../jsonrpc/registry.ts";
import {ResponseBudget} from "../jsonrpc/responseBudget.ts";
import type {Sender} from "../limits/admission.ts";
import {requestCount} from "../limits/rateLimit.ts";
import type {RpcOptions} from "../options.ts";
import type {ConnectionRequests} from "./connectionRequests.ts";
import type {InFlightRequests} from "./inFlight.ts";
import {RequestControl} from "./requestControl.ts";

/** What a transport sends back: no payload when only notifications came in. */
export interface Reply {
  httpStatus: number;
  /** UTF-8 JSON text. */
  payload: Buffer | undefined;
  /** Set with HTTP 429: the `Retry-After` header (docs/gateway.md). */
  retryAfterSeconds?: number;
}

/** The limits a reply is built under, and the server's running requests it joins. */
export type ReplyLimits = Pick<RpcOptions, "requestTimeoutMs" | "maxResponseBytes"> & {
  requests: InFlightRequests;
};

/** A whole response carrying only `error`, id null: a refusal before any request was read. */
export const errorPayload = (error: RpcError): Buffer =>
  Buffer.from(JSON.stringify({jsonrpc: "2.0", id: null, error: error.toObject()}));

/**
 * Dispatches `text`; the work is aborted when `requests` (the connection's) closes. The sender's
 * batch cap and rate apply before anything runs (an API key's, or the client address's).
 * Past the time budget the answer is -32011 at once while the work is told to stop; no timer,
 * promise race or `AbortController` is made per request (the deadlines share `InFlightRequests`'
 * timer, the signal is made on demand). A body answered synchronously is answered without a promise
 * (the fast path, `isPending`): its work has ended before any timer or close event could run.
 */
export function reply(
  text: string,
  dispatchOptions: DispatchOptions,
  limits: ReplyLimits,
  transport: {
    kind: "http" | "ws";
    client: RpcClient;
    connection?: Connection;
    requests: ConnectionRequests;
    sender: Sender;
  },
): Reply | Promise<Reply> {
  const {sender} = transport;
  const {maxBatchSize} = sender.requestLimits;
  const parsed = parseBody(
    text,
    maxBatchSize < dispatchOptions.maxBatchSize ? {...dispatchOptions, maxBatchSize} : dispatchOptions,
  );
  // A body refused before it runs costs its sender a token too: over the rate, the rate's answer.
  const raw = parsed.kind === "answered" ? undefined : parsed.raw;
  const overRate = sender.checkRate(raw, transport.client);
  if (overRate) {
    dispatchOptions.events?.emit("rateLimited", {requests: requestCount(raw), keyId: sender.id});
    return overRate;
  }
  if (parsed.kind === "answered") return parsed.result;
  const timeoutMs = dispatchOptions.registry.timeBudgetMs(methodsOf(parsed.raw), limits.requestTimeoutMs);
  // Aborted with -32011 as its reason: a read that stops on it (`throwIfAborted`) ends as a timeout.
  const control = new RequestControl(performance.now() + timeoutMs);
  const {requests} = transport;
  // A body answered synchronously never joins the connection's requests: no close can come while it runs.
  if (requests.closed) control.abort(RpcError.timeout());
  const budget = new ResponseBudget(limits.maxResponseBytes, limits.requests.memory);
  const body = new BodyAnswer(parsed.raw);
  let work: DispatchResult | Promise<DispatchResult> | undefined;
  try {
    work = dispatchParsed(parsed.raw, dispatchOptions, new BodyContext(transport, control, budget), body);
  } finally {
    // Answered already (or a response that cannot be serialized threw): the work has ended.
    if (!isPending(work)) budget.release();
  }
  if (!isPending(work)) return work;
  requests.add(control);
  // The bytes stay reserved until the work has ended, even when the answer was a timeout.
  const running = work.finally(() => budget.release());
  limits.requests.track(control, running);
  return new Promise<DispatchResult | undefined>((resolve) => {
    control.onTimeout = () => resolve(undefined);
    running.then(resolve);
  }).then((result) => {
    requests.delete(control);
    // Timed out: the answers so far, and -32011 with its id for each request not answered.
    return result ?? body.finish(RpcError.timeout());
  });
}

/** The `RequestContext` of one body: a class, so that each request costs one small object and no closure. */
class BodyContext implements RequestContext {
  readonly transport: "http" | "ws";
  readonly client: RpcClient;
  readonly principal: Principal;
  readonly connection: Connection | undefined;

  constructor(
    transport: {kind: "http" | "ws"; client: RpcClient; connection?: Connection; sender: Sender},
    private readonly control: RequestControl,
    readonly budget: ResponseBudget,
  ) {
    this.transport = transport.kind;
    this.client = transport.client;
    this.principal = transport.sender;
    this.connection = transport.connection;
  }

  get limits(): RequestLimits {
    return this.principal.requestLimits;
  }

  get signal(): AbortSignal {
    return this.control.signal;
  }

  get aborted(): boolean {
    return this.control.aborted;
  }
}
