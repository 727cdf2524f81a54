/**
 * The answer of one body as it is built: the responses of a batch's items answered so far, and the
 * answer to send when a limit stops the body part-way (docs/rpc.md §8). Every request keeps its id:
 * the items answered stay, the one that met the limit and those not run yet are each answered with
 * the limit's error and their own id (geth's `batchCallBuffer`); a single request gets the error
 * with its id; a notification gets nothing.
 */
import type {RpcError} from "./errors.ts";
import {errorResponse, parseRequest} from "./message.ts";

/** What to send back. */
export interface DispatchResult {
  /** The UTF-8 JSON of the response body; undefined when only notifications came in. */
  payload: Buffer | undefined;
  httpStatus: number;
}

/** The answer of one body (a request or a batch), built by dispatch and, past a limit, finished by `finish`. */
export class BodyAnswer {
  private readonly parts: (string | Buffer)[] = [];
  private final: DispatchResult | undefined;
  /** For a batch: the index of the first item not answered yet. */
  next = 0;

  /** `raw`: the parsed body, a request object or a batch. */
  constructor(readonly raw: unknown) {}

  /** Whether the answer was sent already (`finish` was called): further responses are dropped. */
  get finished(): boolean {
    return this.final !== undefined;
  }

  /** Keeps a batch item's serialized response (undefined for a notification) and moves to the next item. */
  keep(part: string | Buffer | undefined): void {
    if (this.final) return;
    if (part !== undefined) this.parts.push(part);
    this.next++;
  }

  /** A batch with every item answered: its responses as one array, no payload when all were notifications. */
  complete(): DispatchResult {
    return {payload: this.parts.length > 0 ? joinArray(this.parts) : undefined, httpStatus: 200};
  }

  /**
   * The answer when `error` (a timeout, a response cap) stops the body: a batch keeps the responses
   * answered so far and answers the rest with `error`, each with its own id; a single request is
   * answered with `error` and its id. The first call decides; later ones return the same answer.
   */
  finish(error: RpcError): DispatchResult {
    if (this.final) return this.final;
    if (!Array.isArray(this.raw)) {
      const part = failedPart(this.raw, error);
      this.final = {payload: part === undefined ? undefined : Buffer.from(part), httpStatus: 200};
      return this.final;
    }
    for (let i = this.next; i < this.raw.length; i++) {
      const part = failedPart(this.raw[i], error);
      if (part !== undefined) this.parts.push(part);
    }
    this.next = this.raw.length;
    this.final = this.complete();
    return this.final;
  }
}

/** The response text answering one request object with `error`; undefined for a notification. */
function failedPart(raw: unknown, error: RpcError): string | undefined {
  const request = parseRequest(raw);
  if (request.ok && request.notification) return undefined;
  return JSON.stringify(errorResponse(request.id, error));
}

/** The batch's answer: its responses' text joined and encoded once, unless some are bytes already. */
function joinArray(parts: readonly (string | Buffer)[]): Buffer {
  if (parts.every((part) => typeof part === "string")) return Buffer.from(`[${parts.join(",")}]`);
  const chunks: Buffer[] = [OPEN];
  parts.forEach((part, i) => {
    if (i > 0) chunks.push(COMMA);
    chunks.push(typeof part === "string" ? Buffer.from(part) : part);
  });
  chunks.push(CLOSE);
  return Buffer.concat(chunks);
}

const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");
