/**
 * The fork's JSON-RPC client of its upstream (docs/forking.md §1.3). Calls made in the same turn of the
 * event loop go out as one batch request (at most `batchSize` calls each); an upstream that refuses a batch
 * (answers it with a single error object or a non-200 status) is asked one call per request from then on.
 * Calls are paced at `requestsPerSecond` (unset: not at all on loopback, 100 a second otherwise); a connection error, a timeout, HTTP 429 or 5xx, or a JSON-RPC
 * rate-limit answer (-32005) is retried with backoff, at most `retries` times, only for the calls that have no
 * answer yet. A call that finally fails rejects with a `ForkError` naming the upstream (redacted) and its key.
 */
import {
  answersById,
  isLimitError,
  isLoopbackHost,
  type Logger,
  noopLogger,
  paceRequests,
  postJson,
  quoteBody,
  type RpcAnswer,
  readAnswer,
  redactUrl,
  TokenBucket,
  TransientFailure,
  withoutCredentials,
  withRetries,
} from "@xchain/utils";
import type {UpstreamClientOptions} from "../options.ts";
import {ForkError, ForkErrorCode} from "./errors.ts";

/** One call waiting for its answer. */
interface Pending {
  method: string;
  params: unknown[];
  /** What is being read, for errors: `account 0x…`, `block 12`. */
  key: string;
  settled: boolean;
  resolve(result: unknown): void;
  reject(error: ForkError): void;
}

/** A failure of a whole request, made into each waiting call's own error by its key. */
class RequestFailure extends Error {
  constructor(readonly forKey: (key: string) => ForkError) {
    super("request failed");
  }
}

/** The pace of an upstream beyond loopback when `requestsPerSecond` is unset: public providers rate-limit. */
export const REMOTE_UPSTREAM_REQUESTS_PER_SECOND = 100;

/**
 * The calls a second sent to the upstream at `url` (0: no limit): `requestsPerSecond` when set; unset,
 * no limit on loopback (as anvil and Hardhat, which never pace) and `REMOTE_UPSTREAM_REQUESTS_PER_SECOND`
 * for any other host (docs/forking.md §1.3).
 */
export function upstreamPace(url: string, requestsPerSecond: number | undefined): number {
  if (requestsPerSecond !== undefined) return requestsPerSecond;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return REMOTE_UPSTREAM_REQUESTS_PER_SECOND;
  }
  return isLoopbackHost(host) ? 0 : REMOTE_UPSTREAM_REQUESTS_PER_SECOND;
}

/** Statuses with which servers refuse a batch (a body too large, or no batch support) rather than the calls. */
const BATCH_REFUSAL_STATUSES = new Set([400, 405, 413, 415]);

export class UpstreamClient {
  /** The URL as errors and logs show it. */
  readonly displayUrl: string;
  /** The calls a second sent at most (`upstreamPace`); 0: no limit. */
  readonly pace: number;
  private readonly bucket: TokenBucket | undefined;
  private readonly logger: Logger;
  private readonly abort = new AbortController();
  private queue: Pending[] = [];
  private flushScheduled = false;
  /** The URL requests go to (without user and password) and the Authorization they carry instead. */
  private readonly target: {url: string; headers: Record<string, string>};
  /** Set once the upstream refused a batch: every call is then a request of its own. */
  private batchRefused = false;

  constructor(
    url: string,
    private readonly opts: UpstreamClientOptions,
    modules: {logger?: Logger} = {},
  ) {
    this.displayUrl = redactUrl(url);
    this.target = withoutCredentials(url);
    this.logger = modules.logger ?? noopLogger;
    const rate = upstreamPace(url, opts.requestsPerSecond);
    this.pace = rate;
    this.bucket = rate > 0 ? new TokenBucket({ratePerSecond: rate, burst: Math.max(opts.batchSize, rate)}) : undefined;
  }

  /** The result of `method(params)`; `key` names what is read in the error if it fails. */
  call(method: string, params: unknown[], key: string): Promise<unknown> {
    const promise = new Promise<unknown>((resolve, reject) => {
      this.queue.push({method, params, key, settled: false, resolve, reject});
    });
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    return promise;
  }

  /** Stops the requests in flight (their calls reject). */
  close(): void {
    this.abort.abort();
  }

  private flush(): void {
    this.flushScheduled = false;
    const calls = this.queue;
    this.queue = [];
    const size = this.batchRefused ? 1 : Math.max(1, this.opts.batchSize);
    for (let i = 0; i < calls.length; i += size) void this.send(calls.slice(i, i + size));
  }

  /** Sends `calls` until each has its answer or the retries are spent; never rejects. */
  private async send(calls: Pending[]): Promise<void> {
    const signal = this.abort.signal;
    try {
      await paceRequests(this.bucket, calls.length, signal);
      await withRetries(
        () => this.exchange(calls.filter((c) => !c.settled)),
        this.opts.retries,
        (attempts, reason) =>
          new RequestFailure(
            (key) =>
              new ForkError(
                {code: ForkErrorCode.UPSTREAM_UNREACHABLE, url: this.displayUrl, key, attempts, reason},
                `upstream ${this.displayUrl}: reading ${key} failed ${attempts} time${attempts === 1 ? "" : "s"} (${reason})`,
              ),
          ),
        signal,
      );
    } catch (e) {
      for (const call of calls) {
        if (call.settled) continue;
        call.settled = true;
        call.reject(e instanceof RequestFailure ? e.forKey(call.key) : this.unreachable(call.key, e));
      }
    }
  }

  private unreachable(key: string, e: unknown): ForkError {
    const reason = this.abort.signal.aborted ? "the client was closed" : String((e as Error)?.message ?? e);
    return new ForkError(
      {code: ForkErrorCode.UPSTREAM_UNREACHABLE, url: this.displayUrl, key, attempts: 1, reason},
      `upstream ${this.displayUrl}: reading ${key} failed (${reason})`,
    );
  }

  /** One attempt: settles the calls answered, throws `TransientFailure` when some are left to retry. */
  private async exchange(calls: Pending[]): Promise<void> {
    if (calls.length === 1 || this.batchRefused) {
      const outcomes = await Promise.allSettled(calls.map((c) => this.exchangeOne(c)));
      const transient = outcomes.find((o) => o.status === "rejected");
      if (transient) throw (transient as PromiseRejectedResult).reason;
      return;
    }
    const requests = calls.map((c, id) => ({jsonrpc: "2.0", id, method: c.method, params: c.params}));
    const {status, body, parsed} = await this.post(requests);
    const byId = answersById(parsed);
    if (byId === undefined) {
      const single = readAnswer(parsed)?.error;
      if (single && isLimitError(single.code, single.message)) throw new TransientFailure(single.message);
      if (single !== undefined || BATCH_REFUSAL_STATUSES.has(status)) {
        // A single error object (or a refusal status) for a batch: this upstream takes calls one at a time.
        this.batchRefused = true;
        this.logger.warn(
          {url: this.displayUrl, status, answer: quoteBody(body)},
          "the fork's upstream refused a batch request: calls go one per request",
        );
        return this.exchange(calls);
      }
      throw this.failure(status, body);
    }
    let limited: string | undefined;
    calls.forEach((call, id) => {
      const answer = readAnswer(byId.get(id));
      if (answer === undefined) {
        this.settle(call, undefined, `the batch answer has no result or error for id ${id}: ${quoteBody(body)}`);
      } else if (!this.settle(call, answer)) limited = answer.error?.message;
    });
    if (limited !== undefined) throw new TransientFailure(limited);
  }

  private post(payload: unknown) {
    return postJson(this.target.url, payload, this.opts.timeoutMs, this.abort.signal, this.target.headers);
  }

  private async exchangeOne(call: Pending): Promise<void> {
    const request = {jsonrpc: "2.0", id: 1, method: call.method, params: call.params};
    const {status, body, parsed} = await this.post(request);
    const answer = readAnswer(parsed);
    if (status !== 200 && answer?.error === undefined) throw this.failure(status, body);
    if (!this.settle(call, answer, `the answer is not a JSON-RPC answer: ${quoteBody(body)}`)) {
      throw new TransientFailure(answer?.error?.message ?? "rate limited");
    }
  }

  /** A request answered by something that is no JSON-RPC answer: an HTTP status, or 200 with another body. */
  private failure(status: number, body: string): RequestFailure {
    const url = this.displayUrl;
    return new RequestFailure((key) =>
      status === 200
        ? new ForkError(
            {code: ForkErrorCode.UPSTREAM_BAD_ANSWER, url, key, reason: `not a JSON-RPC answer: ${quoteBody(body)}`},
            `upstream ${url}: reading ${key}: the answer is not a JSON-RPC answer: ${quoteBody(body)}`,
          )
        : new ForkError(
            {code: ForkErrorCode.UPSTREAM_HTTP_STATUS, url, key, status, body: quoteBody(body)},
            `upstream ${url} answered HTTP ${status} reading ${key}: ${quoteBody(body)}`,
          ),
    );
  }

  /** Settles `call` with `answer`; false (nothing settled) for a rate-limit error, to be retried. */
  private settle(call: Pending, answer: RpcAnswer | undefined, badReason = ""): boolean {
    const url = this.displayUrl;
    const key = call.key;
    if (answer?.error && isLimitError(answer.error.code, answer.error.message)) return false;
    call.settled = true;
    if (answer === undefined) {
      call.reject(
        new ForkError(
          {code: ForkErrorCode.UPSTREAM_BAD_ANSWER, url, key, reason: badReason},
          `upstream ${url}: reading ${key}: ${badReason}`,
        ),
      );
    } else if (answer.error) {
      const {code, message, data} = answer.error;
      const rpcData = data === undefined ? {} : {rpcData: data};
      call.reject(
        new ForkError(
          {code: ForkErrorCode.UPSTREAM_ERROR_ANSWER, url, key, rpcCode: code, rpcMessage: message, ...rpcData},
          `upstream ${url}: ${call.method} reading ${key} answered error ${String(code)}: ${message}`,
        ),
      );
    } else call.resolve(answer.result);
    return true;
  }
}
