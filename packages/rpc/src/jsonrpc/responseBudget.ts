/**
 * Response bytes counted while a response is built (docs/rpc.md §8): each body may reach
 * `maxResponseBytes`, and all bodies being built at once share `maxInFlightResponseBytes`. Bytes are
 * reserved before they are kept, so a response that would pass either cap stops growing at once.
 */
import {RpcError, RpcErrorCode} from "./errors.ts";

/** The bytes of every response being built, across all clients. */
export class ResponseMemory {
  private used = 0;

  /** `maxBytes`: the most all responses being built may hold together. */
  constructor(readonly maxBytes: number) {}

  /** Bytes reserved now. */
  get reserved(): number {
    return this.used;
  }

  /** Reserves `bytes`; false (nothing reserved) when that would pass `maxBytes`. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.maxBytes) return false;
    this.used += bytes;
    return true;
  }

  /** Gives back bytes reserved with `take`. */
  give(bytes: number): void {
    this.used -= bytes;
  }
}

/** The bytes of one body (a request or a whole batch). */
export class ResponseBudget {
  private counted = 0;
  private refusal: RpcError | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly memory: ResponseMemory,
  ) {}

  /** Bytes counted so far. */
  get used(): number {
    return this.counted;
  }

  /** Why the body cannot be answered, once a reservation failed: -32011 or -32005. */
  get exceeded(): RpcError | undefined {
    return this.refusal;
  }

  /** Counts `bytes` more; false once they pass this body's cap or the shared memory. */
  tryReserve(bytes: number): boolean {
    if (this.refusal) return false;
    if (this.counted + bytes > this.maxBytes) {
      this.refusal = RpcError.responseTooLarge(this.maxBytes);
      return false;
    }
    if (!this.memory.take(bytes)) {
      this.refusal = new RpcError(
        RpcErrorCode.LIMIT_EXCEEDED,
        `responses being built use all of rpc.maxInFlightResponseBytes (${this.memory.maxBytes} bytes); retry later`,
      );
      return false;
    }
    this.counted += bytes;
    return true;
  }

  /** `tryReserve` for handlers: throws the refusal, which stops the work that would have grown the response. */
  reserve(bytes: number): void {
    if (!this.tryReserve(bytes)) throw this.refusal;
  }

  /** Gives the bytes counted so far back to the shared memory: call once the body is done. */
  release(): void {
    this.memory.give(this.counted);
    this.counted = 0;
  }
}
