/**
 * Dispatch of one body (a request or a batch) for both transports, and the only place where an
 * exception becomes a wire error (design "RPC"). Batches run sequentially, in order, and their
 * size counts nested arrays recursively (docs/protocol/errors.md). Each response is serialized as
 * soon as it is answered and its bytes counted in the body's budget: once the budget refuses, the
 * rest of the batch is not run; the items answered stay and the others are answered with the
 * refusal, each with its own id (docs/rpc.md §8).
 */
import type {EventEmitter} from "node:events";
import {setImmediate} from "node:timers/promises";
import {BodyAnswer, type DispatchResult} from "./bodyAnswer.ts";
import {MethodUnavailableError, RpcError, RpcErrorCode} from "./errors.ts";
import {errorResponse, type JsonRpcRequest, type JsonRpcResponse, parseRequest, resultResponse} from "./message.ts";
import {isPending} from "./pending.ts";
import {serializeResponse} from "./rawJson.ts";
import type {MethodLookup, MethodRegistry, RequestContext} from "./registry.ts";
import type {RpcEvents} from "./requestEvents.ts";

/** What dispatch needs besides the body. */
export interface DispatchOptions {
  registry: MethodRegistry;
  /** Most requests in one body, nested arrays counted recursively (rskj `max_batch_requests_size`). */
  maxBatchSize: number;
  /** Deepest nesting of arrays and objects accepted anywhere in a body. */
  maxJsonDepth: number;
  /**
   * Maps an error that is neither an `RpcError` nor a `MethodUnavailableError` (typed errors of other
   * packages; -32603 otherwise).
   */
  mapError(error: unknown, method: string): RpcError;
  /** Where each answered request's method, time and outcome is told; without listeners nothing is timed. */
  events?: Pick<EventEmitter<RpcEvents>, "emit" | "listenerCount">;
}

export type {DispatchResult};

/** The name a request event gives a method that is not registered. */
export const UNKNOWN_METHOD = "unknown";

// docs/protocol/errors.md: HTTP 400 only when the top-level error is one of these.
const BAD_REQUEST_CODES: ReadonlySet<number> = new Set([
  RpcErrorCode.PARSE_ERROR,
  RpcErrorCode.INVALID_REQUEST,
  RpcErrorCode.INVALID_PARAMS,
]);

/** How long a batch runs before it lets the event loop serve others. */
const BATCH_SLICE_MS = 2;
/** Items of a batch between two looks at the clock and the signal: both cost more than a cached read. */
const BATCH_CHECK_EVERY = 8;

/** A body parsed and checked: the requests to run, or the answer already (malformed, too deep, too large). */
export type ParsedBody = {kind: "requests"; raw: unknown} | {kind: "answered"; result: DispatchResult};

/** Parses and answers a body. Never throws. */
export async function dispatch(
  text: string,
  options: DispatchOptions,
  context: RequestContext,
): Promise<DispatchResult> {
  const parsed = parseBody(text, options);
  return parsed.kind === "answered" ? parsed.result : dispatchParsed(parsed.raw, options, context);
}

/** Parses a body and checks its shape and size; nothing runs yet. */
export function parseBody(text: string, options: DispatchOptions): ParsedBody {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return answered(single(errorResponse(null, RpcError.parseError())));
  }
  if (nestingExceeds(raw, options.maxJsonDepth)) {
    // rskj answers a stack overflow of its parser with -32600 (docs/protocol/errors.md).
    return answered(single(errorResponse(null, RpcError.invalidRequest("Invalid request: nesting too deep"))));
  }
  if (!Array.isArray(raw)) return {kind: "requests", raw};
  if (raw.length === 0) {
    return answered(single(errorResponse(null, RpcError.invalidRequest("invalid request: empty batch"))));
  }
  if (countExceeds(raw, options.maxBatchSize)) {
    const message = `Cannot dispatch batch requests. ${options.maxBatchSize} is the max number of supported batch requests`;
    // rskj's code and message in a JSON-RPC 2.0 response, where rskj sends a bare error; HTTP 400 as -32600 (docs/protocol/json-rpc.md §1.2).
    return answered(single(errorResponse(null, RpcError.invalidRequest(message))));
  }
  return {kind: "requests", raw};
}

/** The method names a parsed body calls (what is not a request object is left out). */
export function methodsOf(raw: unknown): string[] {
  const names: string[] = [];
  for (const element of Array.isArray(raw) ? raw : [raw]) {
    const name = typeof element === "object" && element !== null ? (element as {method?: unknown}).method : undefined;
    if (typeof name === "string") names.push(name);
  }
  return names;
}

/**
 * Answers a body `parseBody` accepted; never throws. The answer comes synchronously when every
 * handler it ran answered synchronously (the fast path, `isPending`).
 * `body` is where the answer is built: the transport finishes it with -32011 when the time budget
 * passes first.
 */
export function dispatchParsed(
  raw: unknown,
  options: DispatchOptions,
  context: RequestContext,
  body: BodyAnswer = new BodyAnswer(raw),
): DispatchResult | Promise<DispatchResult> {
  if (Array.isArray(raw)) return dispatchBatch(raw, options, context, body);
  const response = answer(raw, options, context);
  return isPending(response)
    ? response.then((r) => singleAnswer(r, context, body))
    : singleAnswer(response, context, body);
}

function singleAnswer(
  response: JsonRpcResponse | undefined,
  context: RequestContext,
  body: BodyAnswer,
): DispatchResult {
  if (context.budget.exceeded) return refused(context, body);
  const result = single(response);
  return result.payload && !reserveRest(context, 0, result.payload.length) ? refused(context, body) : result;
}

/**
 * Answers a batch from item `body.next` on, synchronously as long as its answers are known at once
 * and its time slice lasts; a pending answer or a yield continues it in a promise. `resumed`: the
 * next item comes right after a yield, whose slice has just begun.
 */
function dispatchBatch(
  raw: unknown[],
  options: DispatchOptions,
  context: RequestContext,
  body: BodyAnswer,
  sliceStart = performance.now(),
  resumed = false,
): DispatchResult | Promise<DispatchResult> {
  const start = body.next;
  for (let i = start; i < raw.length; i++) {
    // A long batch yields now and then: other connections get their turn and the timeout can fire.
    if (i > 0 && i % BATCH_CHECK_EVERY === 0) {
      if (!(resumed && i === start) && performance.now() - sliceStart >= BATCH_SLICE_MS) {
        return setImmediate().then(() => dispatchBatch(raw, options, context, body, performance.now(), true));
      }
      // Told to stop (a timeout, the server closing): the items not run are answered with the reason.
      if (context.aborted ?? context.signal.aborted) return body.finish(abortReason(context));
    }
    const mark = context.budget.used;
    const answered = answer(raw[i], options, context);
    if (isPending(answered)) {
      return answered.then(
        (response) => keepPart(response, mark, body, context) ?? dispatchBatch(raw, options, context, body, sliceStart),
      );
    }
    const refusal = keepPart(answered, mark, body, context);
    if (refusal) return refusal;
  }
  return body.complete();
}

/**
 * Serializes a batch item's response into `body`, its bytes counted from `mark` (what the budget
 * stood at when it started); the finished answer when the budget refused, or when it was sent already.
 */
function keepPart(
  response: JsonRpcResponse | undefined,
  mark: number,
  body: BodyAnswer,
  context: RequestContext,
): DispatchResult | undefined {
  if (context.budget.exceeded) return refused(context, body);
  if (body.finished) return body.finish(abortReason(context));
  if (!response) {
    body.keep(undefined);
    return undefined;
  }
  const part = serializeResponse(response);
  const size = typeof part === "string" ? Buffer.byteLength(part) : part.length;
  // One byte more for the separator.
  if (!reserveRest(context, mark, size + 1)) return refused(context, body);
  body.keep(part);
  return undefined;
}

function answered(result: DispatchResult): ParsedBody {
  return {kind: "answered", result};
}

function single(response: JsonRpcResponse | undefined): DispatchResult {
  const status = response && "error" in response && BAD_REQUEST_CODES.has(response.error.code) ? 400 : 200;
  if (!response) return {payload: undefined, httpStatus: status};
  const text = serializeResponse(response);
  return {payload: typeof text === "string" ? Buffer.from(text) : text, httpStatus: status};
}

/**
 * The body answered once the budget refused (over `maxResponseBytes`, or past the memory all
 * responses share): the items answered so far stay, the one refused and the rest get the refusal
 * with their own ids (docs/rpc.md §8).
 */
function refused(context: RequestContext, body: BodyAnswer): DispatchResult {
  return body.finish(context.budget.exceeded ?? RpcError.internal());
}

/** Why the body's work was told to stop: -32011 unless the signal says otherwise. */
function abortReason(context: RequestContext): RpcError {
  const reason: unknown = context.signal.reason;
  return reason instanceof RpcError ? reason : RpcError.timeout();
}

/**
 * Counts a response of `size` bytes whose handler started when the budget stood at `mark`: what the
 * handler reserved for its result already counts, the rest is reserved now. False when refused.
 */
function reserveRest(context: RequestContext, mark: number, size: number): boolean {
  const missing = size - (context.budget.used - mark);
  return missing <= 0 || context.budget.tryReserve(missing);
}

/**
 * The response to one request object, undefined for a notification; a promise only when the
 * handler's answer is one.
 */
function answer(
  raw: unknown,
  options: DispatchOptions,
  context: RequestContext,
): JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined> {
  const request = parseRequest(raw);
  if (!request.ok) return errorResponse(request.id, request.error);
  const started = options.events?.listenerCount("request") ? performance.now() : undefined;
  const found = options.registry.lookup(request.method);
  let result: unknown;
  try {
    if (found.kind === "unknown") throw RpcError.methodNotFound(request.method);
    if (found.kind === "disabled") throw RpcError.methodNotAvailable(request.method, "it is disabled on this node");
    const refusal = context.principal.refusal(request.method);
    if (refusal !== undefined) throw RpcError.methodNotAvailable(request.method, refusal);
    result = found.method.invoke(request.params, context);
  } catch (e) {
    return failedAnswer(e, request, found, started, options, context);
  }
  // A known answer makes no closure (a batch of cached reads answers 50 of these at once).
  if (!isPending(result)) return settled(request, found, resultResponse(request.id, result), started, options, context);
  return Promise.resolve(result).then(
    (value) => settled(request, found, resultResponse(request.id, value), started, options, context),
    (e: unknown) => failedAnswer(e, request, found, started, options, context),
  );
}

function failedAnswer(
  error: unknown,
  request: JsonRpcRequest,
  found: MethodLookup,
  started: number | undefined,
  options: DispatchOptions,
  context: RequestContext,
): JsonRpcResponse | undefined {
  const response = errorResponse(request.id, toRpcError(error, request.method, options));
  return settled(request, found, response, started, options, context);
}

/** Tells the `request` listeners of an answered request; the response, undefined for a notification. */
function settled(
  request: JsonRpcRequest,
  found: MethodLookup,
  response: JsonRpcResponse,
  started: number | undefined,
  options: DispatchOptions,
  context: RequestContext,
): JsonRpcResponse | undefined {
  if (started !== undefined) {
    const method = found.kind === "unknown" ? UNKNOWN_METHOD : request.method;
    const durationMs = performance.now() - started;
    options.events?.emit("request", {method, durationMs, failed: "error" in response, keyId: context.principal.id});
  }
  return request.notification ? undefined : response;
}

function toRpcError(error: unknown, method: string, options: DispatchOptions): RpcError {
  if (error instanceof RpcError) return error;
  if (error instanceof MethodUnavailableError) return RpcError.methodNotAvailable(method, error.reason);
  return options.mapError(error, method);
}

/** Whether a batch holds more than `max` requests, nested arrays counted recursively (docs/protocol/errors.md). */
function countExceeds(batch: unknown[], max: number): boolean {
  let count = 0;
  const pending: unknown[] = [];
  // The top level counted in place: only nested arrays (rare) go through the stack.
  for (const element of batch) {
    if (Array.isArray(element)) pending.push(element);
    else if (++count > max) return true;
  }
  while (pending.length > 0) {
    const item = pending.pop();
    if (!Array.isArray(item)) {
      if (++count > max) return true;
      continue;
    }
    for (const element of item) pending.push(element);
  }
  return false;
}

// Recursion is bounded by `maxDepth`, so a hostile body cannot overflow the stack here.
function nestingExceeds(value: unknown, maxDepth: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (maxDepth === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (nestingExceeds(item, maxDepth - 1)) return true;
    return false;
  }
  for (const key in value) if (nestingExceeds((value as Record<string, unknown>)[key], maxDepth - 1)) return true;
  return false;
}
