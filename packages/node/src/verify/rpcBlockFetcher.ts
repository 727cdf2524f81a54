/**
 * Fetches blocks by number from a node's JSON-RPC endpoint (rskj or xchain) for `verify-headers --rpc`:
 * `eth_getBlockByNumber(n, false)` in batched requests, at most `concurrency` batches in flight and at most
 * `rate` blocks a second, answers yielded in block order (so memory holds at most `concurrency` batches).
 * Transient failures (connection errors, timeouts, HTTP 429 and 5xx, a JSON-RPC "limit exceeded" answer) are
 * retried with exponential backoff; anything else the node answers that is not a batch of block answers is a
 * `RpcFetchError` that says what came back.
 */
import {
  answersById,
  isLimitError,
  NodeError,
  paceRequests,
  postJson,
  quoteBody,
  type RpcAnswer,
  readAnswer,
  TokenBucket,
  TransientFailure,
  toQuantity,
  withRetries,
} from "@xchain/utils";

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
    await paceRequests(this.bucket, to - from + 1, signal);
    return withRetries(
      () => this.requestBatch(from, to, signal),
      this.opts.retries,
      (attempts, reason) =>
        new RpcFetchError(
          {code: RpcFetchErrorCode.UNREACHABLE, url: this.url, attempts, reason},
          `${this.url}: blocks ${from} to ${to} failed ${attempts} time${attempts === 1 ? "" : "s"} (${reason})`,
        ),
      signal,
    );
  }

  private async requestBatch(from: number, to: number, signal: AbortSignal): Promise<FetchedBlock[]> {
    const requests = [];
    for (let n = from; n <= to; n++) {
      requests.push({jsonrpc: "2.0", id: n, method: "eth_getBlockByNumber", params: [toQuantity(n), false]});
    }
    const {status, body, parsed} = await postJson(this.url, requests, this.opts.timeoutMs, signal);
    if (status !== 200) {
      throw new RpcFetchError(
        {code: RpcFetchErrorCode.HTTP_STATUS, url: this.url, status, body: quoteBody(body)},
        `${this.url} answered HTTP ${status}: ${quoteBody(body)}${batchHint(parsed)}`,
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
    if (parsed === undefined) bad(`is not JSON: ${quoteBody(body)}`);
    if (!Array.isArray(parsed))
      bad(`is not a JSON-RPC batch answer (an array): ${quoteBody(body)}${batchHint(parsed)}`);
    const byId = answersById(parsed) as Map<unknown, unknown>;
    const blocks: FetchedBlock[] = [];
    for (let n = from; n <= to; n++) {
      if (!byId.has(n)) bad(`has no answer with id ${n} (block ${n})`);
      const answer = readAnswer(byId.get(n));
      if (answer === undefined) bad(`has neither result nor error for block ${n}`);
      const {error} = answer as RpcAnswer;
      if (error !== undefined) {
        if (isLimitError(error.code, error.message)) throw new TransientFailure(`block ${n}: ${error.message}`);
        throw new RpcFetchError(
          {
            code: RpcFetchErrorCode.ERROR_ANSWER,
            url: this.url,
            number: n,
            rpcCode: error.code,
            rpcMessage: error.message,
          },
          `${this.url}: eth_getBlockByNumber(${toQuantity(n)}) answered error ${String(error.code)}: ${error.message}`,
        );
      }
      blocks.push({number: n, json: (answer as {result: unknown}).result});
    }
    return blocks;
  }
}

/** A single error object where a batch answer was expected is most often a batch size limit. */
function batchHint(parsed: unknown): string {
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && "error" in parsed
    ? " (if the node limits batch sizes, lower --batch-size)"
    : "";
}
