/**
 * Slots for executions (eth_call, eth_estimateGas, debug_traceCall): at most `perClient` running for one client
 * and `total` across the node. A request beyond either waits in its client's queue, and freed
 * slots go to the waiting clients in turn, so that a client with many calls queued cannot push the
 * others back (docs/rpc.md §8). A request whose signal is aborted while it waits leaves the queue
 * with -32011.
 */
import {RpcError} from "../jsonrpc/errors.ts";
import type {RequestContext} from "../jsonrpc/registry.ts";

/** The caps. */
export interface ExecutionSlotLimits {
  perClient: number;
  total: number;
}

interface Waiter {
  grant(release: () => void): void;
}

/** Hands out execution slots per client. */
export class ExecutionSlots {
  private total = 0;
  private readonly running = new Map<string, number>();
  /** Clients with requests waiting, in the order they are served next (a Map keeps insertion order). */
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(private readonly limits: ExecutionSlotLimits) {}

  /** Resolves with the function that frees the slot once one is granted to `client`. */
  acquire(client: string, signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(RpcError.timeout());
    const free = this.tryAcquire(client);
    if (free) return Promise.resolve(free);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.dequeue(client, waiter);
        reject(RpcError.timeout());
      };
      const waiter: Waiter = {
        grant: (release) => {
          signal.removeEventListener("abort", onAbort);
          resolve(release);
        },
      };
      signal.addEventListener("abort", onAbort, {once: true});
      const queue = this.waiting.get(client);
      if (queue) queue.push(waiter);
      else this.waiting.set(client, [waiter]);
    });
  }

  /**
   * The function that frees a slot taken at once for `client`, or undefined when it would have to
   * wait (then `acquire`). Looks at no signal: a request that has just started has nothing to stop yet.
   */
  tryAcquire(client: string): (() => void) | undefined {
    return !this.waiting.has(client) && this.hasRoom(client) ? this.take(client) : undefined;
  }

  /**
   * Runs `work` in one of the request's client's slots. A free slot is taken without asking for the
   * request's signal (an `AbortController` made on demand): a call that ends quickly never needs it.
   */
  async run<T>(request: Pick<RequestContext, "client" | "signal">, work: () => Promise<T>): Promise<T> {
    const release = this.tryAcquire(request.client.key) ?? (await this.acquire(request.client.key, request.signal));
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Running executions now (tests, metrics). */
  get runningCount(): number {
    return this.total;
  }

  private hasRoom(client: string): boolean {
    return this.total < this.limits.total && (this.running.get(client) ?? 0) < this.limits.perClient;
  }

  private take(client: string): () => void {
    this.total++;
    this.running.set(client, (this.running.get(client) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.running.get(client) ?? 1) - 1;
      if (left === 0) this.running.delete(client);
      else this.running.set(client, left);
      this.serveWaiting();
    };
  }

  private serveWaiting(): void {
    for (const [client, queue] of this.waiting) {
      if (this.total >= this.limits.total) return;
      if (!this.hasRoom(client)) continue;
      const waiter = queue.shift() as Waiter;
      // The client goes to the back of the line, whether or not it has more waiting.
      this.waiting.delete(client);
      if (queue.length > 0) this.waiting.set(client, queue);
      waiter.grant(this.take(client));
    }
  }

  private dequeue(client: string, waiter: Waiter): void {
    const queue = this.waiting.get(client);
    if (!queue) return;
    const index = queue.indexOf(waiter);
    if (index !== -1) queue.splice(index, 1);
    if (queue.length === 0) this.waiting.delete(client);
  }
}
