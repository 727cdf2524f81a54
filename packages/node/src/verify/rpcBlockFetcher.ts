/**
 * Fetches blocks by number from a node's JSON-RPC endpoint (rskj or xchain) for `verify-headers --rpc`:
 * `eth_getBlockByNumber(n, false)` in batched requests, at most `concurrency` batches in flight and at most
 * `rate` blocks a second, answers yielded in block order (so memory holds at most `concurrency` batches).
 * Transient failures (connection errors, timeouts, HTTP 429 and 5xx, a JSON-RPC "limit exceeded" answer) are
 * retried with exponential backoff; anything else the node answers that is not a batch of block answers is a
 * `RpcFetchError` that says what came back.
 */
import {setTimeout as sleep} from "node:timers/promises";
import {TokenBucket} from "@xchain/rpc";
import {NodeError, toQuantity} from "@xchain/utils";

/** How `RpcBlockFetcher` talks to the node (defaults: `defaultVerifyRpcOptions` in options.ts). */
export interface VerifyRpcOptions {
  /** Blocks per JSON-RPC batch request. */
  batchSize: number;
  /** Batch requests in flight at once. */
  concurrency: number;
  /** Blocks requested per second at most; 0 for no limit. */
  rate: number;
  /** Retries of a transient failure before giving up. */
  retries: number;
  /** Time allowed for one batch request, in milliseconds. */
  timeoutMs: number;
}

/** Each way fetching from the node fails for good. */
export enum RpcFetchErrorCode {
  /** The node could not be reached, or kept failing transiently, after every retry. */
  UNREACHABLE = "RPC_FETCH_UNREACHABLE",
  /** The node answered an HTTP status that is not retried (400, 401, 404...). */
  HTTP_STATUS = "RPC_FETCH_HTTP_STATUS",
  /** The answer is not a JSON-RPC batch answer for the blocks asked (not JSON, not an array, an id missing). */
  BAD_ANSWER = "RPC_FETCH_BAD_ANSWER",
  /** The node answered a JSON-RPC error for a block. */
  ERROR_ANSWER = "RPC_FETCH_ERROR_ANSWER",
}

export type RpcFetchErrorType =
  | {code: RpcFetchErrorCode.UNREACHABLE; url: string; attempts: number; reason: string}
  | {code: RpcFetchErrorCode.HTTP_STATUS; url: string; status: number; body: string}
  | {code: RpcFetchErrorCode.BAD_ANSWER; url: string; from: number; reason: string}
  | {code: RpcFetchErrorCode.ERROR_ANSWER; url: string; number: number; rpcCode: unknown; rpcMessage: string};

/** Fetching blocks from the node failed for good; the message names the node and what it answered. */
export class RpcFetchError extends NodeError<RpcFetchErrorType> {}

/** One block's answer: the JSON block object, or whatever else the node put in `result`. */
export interface FetchedBlock {
  number: number;
  json: unknown;
}

/** A failure worth another attempt, with the node's own wait when it named one (Retry-After). */
class TransientFailure extends Error {
  constructor(
    reason: string,
    readonly retryAfterMs?: number,
  ) {
    super(reason);
  }
}

const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 8_000;
const MAX_RETRY_AFTER_MS = 60_000;
/** How much of an unexpected body an error message quotes. */
const QUOTE_LENGTH = 200;

export class RpcBlockFetcher {
  /** `rate` blocks a second, a batch or a second's worth at once (none without a rate). */
  private readonly bucket: TokenBucket | undefined;

  constructor(
    private readonly url: string,
    private readonly opts: VerifyRpcOptions,
  ) {
    this.bucket =
      opts.rate > 0
        ? new TokenBucket({ratePerSecond: opts.rate, burst: Math.max(opts.batchSize, opts.rate)})
        : undefined;
  }

  /** Blocks `from` to `to` inclusive, in order. Stopping early aborts the requests in flight. */
  async *blocks(from: number, to: number): AsyncGenerator<FetchedBlock> {
    const abort = new AbortController();
    const inFlight: Promise<FetchedBlock[]>[] = [];
    let next = from;
    const launch = () => {
      const start = next;
      const end = Math.min(to, start + this.opts.batchSize - 1);
      next = end + 1;
      const batch = this.fetchBatch(start, end, abort.signal);
      batch.catch(() => {}); // awaited in order below; a rejection must not go unhandled meanwhile
      inFlight.push(batch);
    };
    try {
      while (next <= to && inFlight.length < this.opts.concurrency) launch();
      while (inFlight.length > 0) {
        const blocks = await (inFlight.shift() as Promise<FetchedBlock[]>);
        if (next <= to) launch();
        yield* blocks;
      }
    } finally {
      abort.abort();
    }
  }

  private async fetchBatch(from: number, to: number, signal: AbortSignal): Promise<FetchedBlock[]> {
    await this.pace(to - from + 1, signal);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.requestBatch(from, to, signal);
      } catch (e) {
        if (!(e instanceof TransientFailure) || signal.aborted) throw e;
        if (attempt >= this.opts.retries) {
          throw new RpcFetchError(
            {code: RpcFetchErrorCode.UNREACHABLE, url: this.url, attempts: attempt + 1, reason: e.message},
            `${this.url}: blocks ${from} to ${to} failed ${attempt + 1} time${attempt === 0 ? "" : "s"} (${e.message})`,
          );
        }
        await sleep(e.retryAfterMs ?? Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** attempt), undefined, {signal});
      }
    }
  }

  /** Waits for the rate limit to allow `count` more blocks. */
  private async pace(count: number, signal: AbortSignal): Promise<void> {
    if (!this.bucket) return;
    for (let wait = this.bucket.take(count); wait > 0; wait = this.bucket.take(count)) {
      await sleep(Math.ceil(wait), undefined, {signal});
    }
  }

  private async requestBatch(from: number, to: number, signal: AbortSignal): Promise<FetchedBlock[]> {
    const requests = [];
    for (let n = from; n <= to; n++) {
      requests.push({jsonrpc: "2.0", id: n, method: "eth_getBlockByNumber", params: [toQuantity(n), false]});
    }
    let response: Response;
    let body: string;
    try {
      response = await fetch(this.url, {
        method: "POST",
        headers: {"content-type": "application/json"},
        body: JSON.stringify(requests),
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.opts.timeoutMs)]),
      });
      body = await response.text();
    } catch (e) {
      if (signal.aborted) throw e;
      throw new TransientFailure(describeNetworkError(e, this.opts.timeoutMs));
    }
    if (response.status === 429 || response.status >= 500) {
      throw new TransientFailure(`HTTP ${response.status}`, retryAfterMs(response.headers.get("retry-after")));
    }
    const parsed = parseJson(body);
    if (response.status !== 200) {
      throw new RpcFetchError(
        {code: RpcFetchErrorCode.HTTP_STATUS, url: this.url, status: response.status, body: quote(body)},
        `${this.url} answered HTTP ${response.status}: ${quote(body)}${batchHint(parsed)}`,
      );
    }
    return this.readAnswers(parsed, body, from, to);
  }

  /** The block answers of a batch answer, in block order. */
  private readAnswers(parsed: unknown, body: string, from: number, to: number): FetchedBlock[] {
    const bad = (reason: string): never => {
      throw new RpcFetchError(
        {code: RpcFetchErrorCode.BAD_ANSWER, url: this.url, from, reason},
        `${this.url}: the answer to the batch for blocks ${from} to ${to} ${reason}`,
      );
    };
    if (parsed === undefined) bad(`is not JSON: ${quote(body)}`);
    if (!Array.isArray(parsed)) bad(`is not a JSON-RPC batch answer (an array): ${quote(body)}${batchHint(parsed)}`);
    const byId = new Map<unknown, Record<string, unknown>>();
    for (const item of parsed as unknown[]) {
      if (typeof item === "object" && item !== null)
        byId.set((item as {id?: unknown}).id, item as Record<string, unknown>);
    }
    const blocks: FetchedBlock[] = [];
    for (let n = from; n <= to; n++) {
      const answer = byId.get(n);
      if (!answer) bad(`has no answer with id ${n} (block ${n})`);
      const {error} = answer as {error?: {code?: unknown; message?: unknown}};
      if (error !== undefined) {
        const message = typeof error?.message === "string" ? error.message : JSON.stringify(error);
        if (isLimitError(error?.code, message)) throw new TransientFailure(`block ${n}: ${message}`);
        throw new RpcFetchError(
          {code: RpcFetchErrorCode.ERROR_ANSWER, url: this.url, number: n, rpcCode: error?.code, rpcMessage: message},
          `${this.url}: eth_getBlockByNumber(${toQuantity(n)}) answered error ${String(error?.code)}: ${message}`,
        );
      }
      if (!("result" in (answer as object))) bad(`has neither result nor error for block ${n}`);
      blocks.push({number: n, json: (answer as {result: unknown}).result});
    }
    return blocks;
  }
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function quote(body: string): string {
  const text = body.trim();
  return JSON.stringify(text.length > QUOTE_LENGTH ? `${text.slice(0, QUOTE_LENGTH)}…` : text);
}

/** A single error object where a batch answer was expected is most often a batch size limit. */
function batchHint(parsed: unknown): string {
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && "error" in parsed
    ? " (if the node limits batch sizes, lower --batch-size)"
    : "";
}

/** Rate limiting answered as a JSON-RPC error: -32005 (EIP-1474 "limit exceeded") or a message saying so. */
function isLimitError(code: unknown, message: string): boolean {
  return code === -32005 || /rate limit|too many requests|limit exceeded/i.test(message);
}

function retryAfterMs(header: string | null): number | undefined {
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : undefined;
}

function describeNetworkError(e: unknown, timeoutMs: number): string {
  if (e instanceof DOMException && e.name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  const cause = (e as {cause?: {code?: string; message?: string}}).cause;
  return cause?.code ?? cause?.message ?? (e instanceof Error ? e.message : String(e));
}
