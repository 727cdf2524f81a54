/** A WebSocket JSON-RPC client for tests: requests by id, notifications collected in order. */
import WebSocket from "ws";

/** A JSON-RPC response as a test reads it. */
export interface JsonRpcReply {
  jsonrpc?: string;
  id?: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: tests read results of every shape
  result?: any;
  error?: {code: number; message: string; data?: string};
}

/** A notification `eth_subscription`. */
export interface Notification {
  subscription: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read results of every shape
  result: any;
}

/** One WebSocket connection to a node. */
export class WsClient {
  readonly notifications: Notification[] = [];
  private readonly waiting = new Map<number, (reply: JsonRpcReply) => void>();
  private nextId = 1;
  private readonly closed: Promise<number>;

  private constructor(readonly socket: WebSocket) {
    socket.on("message", (data) => {
      const message = JSON.parse(String(data));
      if (message.method === "eth_subscription") this.notifications.push(message.params);
      else this.waiting.get(message.id)?.(message);
    });
    this.closed = new Promise((resolve) => socket.on("close", (code) => resolve(code)));
  }

  static connect(url: string): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.once("open", () => resolve(new WsClient(socket)));
      socket.once("error", reject);
    });
  }

  /** Sends one request and waits for its response. */
  call(method: string, params: unknown[] = []): Promise<JsonRpcReply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.socket.send(JSON.stringify({jsonrpc: "2.0", id, method, params}));
    });
  }

  /** Resolves once `count` notifications of `subscription` arrived (polling, up to `timeoutMs`). */
  async waitFor(subscription: string, count: number, timeoutMs = 5_000): Promise<Notification[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mine = this.notifications.filter((n) => n.subscription === subscription);
      if (mine.length >= count) return mine;
      if (Date.now() > deadline) throw new Error(`${mine.length} of ${count} notifications after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** The close code, once the server closed the connection. */
  closeCode(): Promise<number> {
    return this.closed;
  }

  close(): void {
    this.socket.close();
  }
}
