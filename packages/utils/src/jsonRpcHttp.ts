/**
 * The HTTP side of a JSON-RPC client, shared by the node's clients of other nodes (`verify-headers --rpc`,
 * the fork's upstream): one POST with a timeout, what counts as transient (connection errors, timeouts,
 * HTTP 429 and 5xx, a JSON-RPC "limit exceeded" answer), bounded retries with exponential backoff (or the
 * server's own Retry-After), pacing by a `TokenBucket`, and the quoting and redaction of what goes into
 * error messages. The callers own their error types: a failure that is not retried is theirs to name.
 */
import {Agent as HttpAgent, request as httpRequest} from "node:http";
import {Agent as HttpsAgent, request as httpsRequest} from "node:https";
import {setTimeout as sleep} from "node:timers/promises";
import type {TokenBucket} from "./tokenBucket.ts";

/** A failure worth another attempt, with the server's own wait when it named one (Retry-After). */
export class TransientFailure extends Error {
  constructor(
    reason: string,
    readonly retryAfterMs?: number,
  ) {
    super(reason);
  }
}

/** What a server answered that is not transient: its status, its body and the body parsed (undefined: not JSON). */
export interface HttpAnswer {
  status: number;
  body: string;
  parsed: unknown;
}

/** The delay before the first retry (doubling up to `MAX_BACKOFF_MS`). */
export const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 8_000;
const MAX_RETRY_AFTER_MS = 60_000;
/** How much of an unexpected body an error message quotes. */
const QUOTE_LENGTH = 200;

/**
 * POSTs `payload` as JSON. Throws `TransientFailure` for a connection error, no answer within `timeoutMs`,
 * HTTP 429 or 5xx; any other answer is returned. An abort of `signal` rejects with the abort reason.
 * `headers` are added to the request's (e.g. the Authorization that `withoutCredentials` took out of a URL).
 * Requests go through node:http(s) agents that keep their connections alive between requests: a client
 * reading value after value pays one connection, not one each, and none of fetch's streams.
 */
export async function postJson(
  url: string,
  payload: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  let answer: {status: number; body: string; retryAfter: string | undefined};
  try {
    signal?.throwIfAborted();
    answer = await post(new URL(url), JSON.stringify(payload), timeoutMs, signal, headers);
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw new TransientFailure(describeNetworkError(e, timeoutMs));
  }
  const {status, body} = answer;
  if (status === 429 || status >= 500) {
    throw new TransientFailure(`HTTP ${status}`, retryAfterMs(answer.retryAfter ?? null));
  }
  return {status, body, parsed: parseJson(body)};
}

const httpAgent = new HttpAgent({keepAlive: true});
const httpsAgent = new HttpsAgent({keepAlive: true});

/** No answer within the time allowed. */
class RequestTimeout extends Error {}

/** One POST of `text` to `url`: the status, the body and the Retry-After header of the answer. */
function post(
  url: URL,
  text: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  headers: Record<string, string>,
): Promise<{status: number; body: string; retryAfter: string | undefined}> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return Promise.reject(new Error(`unsupported protocol ${url.protocol}`));
  }
  const secure = url.protocol === "https:";
  return new Promise((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(url, {
      method: "POST",
      agent: secure ? httpsAgent : httpAgent,
      headers: {"content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers},
      ...(signal ? {signal} : {}),
    });
    const timer = setTimeout(() => request.destroy(new RequestTimeout()), timeoutMs);
    request.on("close", () => clearTimeout(timer));
    request.on("error", reject);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("close", () => {
        if (!response.complete) reject(new Error("the connection closed before the answer was complete"));
      });
      response.on("end", () => {
        const retryAfter = response.headers["retry-after"];
        resolve({status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), retryAfter});
      });
    });
    request.end(text);
  });
}

/**
 * Runs `attempt` until it succeeds, retrying a `TransientFailure` at most `retries` times with exponential
 * backoff (250 ms doubling to 8 s, or the server's Retry-After up to a minute); after the last one it
 * throws `giveUp(attempts, reason)`. Any other error is thrown at once.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  retries: number,
  giveUp: (attempts: number, reason: string) => Error,
  signal?: AbortSignal,
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (e) {
      if (!(e instanceof TransientFailure) || signal?.aborted) throw e;
      if (n >= retries) throw giveUp(n + 1, e.message);
      await sleep(e.retryAfterMs ?? Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** n), undefined, {signal});
    }
  }
}

/** Waits until `bucket` (none: no limit) lets `count` more requests go. */
export async function paceRequests(
  bucket: TokenBucket | undefined,
  count: number,
  signal?: AbortSignal,
): Promise<void> {
  if (!bucket) return;
  for (let wait = bucket.take(count); wait > 0; wait = bucket.take(count)) {
    await sleep(Math.ceil(wait), undefined, {signal});
  }
}

/** One JSON-RPC answer: its result, or its error's code, message and data (when it has some). */
export type RpcAnswer =
  | {result: unknown; error?: undefined}
  | {error: {code: unknown; message: string; data?: unknown}};

/** The answer objects of a batch answer by their id; undefined when `parsed` is not an array. */
export function answersById(parsed: unknown): Map<unknown, unknown> | undefined {
  if (!Array.isArray(parsed)) return undefined;
  const byId = new Map<unknown, unknown>();
  for (const item of parsed) if (typeof item === "object" && item !== null) byId.set((item as {id?: unknown}).id, item);
  return byId;
}

/** Reads one answer object; undefined when it is not an object with a result or an error. */
export function readAnswer(answer: unknown): RpcAnswer | undefined {
  if (typeof answer !== "object" || answer === null) return undefined;
  const {error} = answer as {error?: {code?: unknown; message?: unknown; data?: unknown}};
  if (error !== undefined) {
    const message = typeof error?.message === "string" ? error.message : JSON.stringify(error);
    const data = error?.data;
    return {error: data === undefined ? {code: error?.code, message} : {code: error?.code, message, data}};
  }
  return "result" in answer ? {result: (answer as {result: unknown}).result} : undefined;
}

/** Rate limiting answered as a JSON-RPC error: -32005 (EIP-1474 "limit exceeded") or a message saying so. */
export function isLimitError(code: unknown, message: string): boolean {
  return code === -32005 || /rate limit|too many requests|limit exceeded/i.test(message);
}

/** A body as an error message quotes it: trimmed, at most 200 characters, in JSON quotes. */
export function quoteBody(body: string): string {
  const text = body.trim();
  return JSON.stringify(text.length > QUOTE_LENGTH ? `${text.slice(0, QUOTE_LENGTH)}…` : text);
}

/**
 * A URL as logs and errors may show it: without user and password, query string, and with every path
 * segment that looks like an API key (16 or more letters and digits, as Infura's and Alchemy's) replaced by `***`.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(an unparsable URL)";
  }
  const path = parsed.pathname
    .split("/")
    .map((segment) => (/^[A-Za-z0-9_-]{16,}$/.test(segment) && /\d/.test(segment) ? "***" : segment))
    .join("/");
  return `${parsed.protocol}//${parsed.host}${path === "/" ? "" : path}`;
}

/**
 * A URL's user and password (which fetch refuses in a URL) as a basic Authorization header, and the URL
 * without them.
 */
export function withoutCredentials(url: string): {url: string; headers: Record<string, string>} {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {url, headers: {}};
  }
  if (parsed.username === "" && parsed.password === "") return {url, headers: {}};
  const user = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = "";
  parsed.password = "";
  return {url: parsed.toString(), headers: {authorization: `Basic ${Buffer.from(user).toString("base64")}`}};
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function retryAfterMs(header: string | null): number | undefined {
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : undefined;
}

function describeNetworkError(e: unknown, timeoutMs: number): string {
  if (e instanceof RequestTimeout) return `no answer within ${timeoutMs} ms`;
  // The system's code (ECONNREFUSED…), on the error or on its cause.
  const {code, cause} = e as {code?: string; cause?: {code?: string; message?: string}};
  return code ?? cause?.code ?? cause?.message ?? (e instanceof Error ? e.message : String(e));
}
