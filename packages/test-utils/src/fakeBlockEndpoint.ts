/**
 * A JSON-RPC endpoint on loopback (a free port) that answers `eth_getBlockByNumber` from a map of block
 * objects, single or batched, as an rskj node would: null for a block it does not have; another method by the
 * handler a test gives it (`methods`), else a -32601 error worded as rskj's. Tests tamper with its blocks, hide
 * some, make it fail transiently or answer errors, and read back the block numbers and calls it was asked for.
 */
import {createServer, type Server} from "node:http";
import type {AddressInfo} from "node:net";

interface JsonRpcRequest {
  id?: unknown;
  method?: unknown;
  params?: unknown[];
}

export class FakeBlockEndpoint {
  /** The block objects served, by number. */
  readonly blocks = new Map<number, unknown>();
  /** Every block number asked for, in order. */
  readonly requested: number[] = [];
  /** Blocks above this are answered null, as by a node whose head is here. */
  head = Number.POSITIVE_INFINITY;
  /** The next this-many HTTP requests are answered 503 (a transient failure). */
  failNext = 0;
  /** When set, every request gets this body, with `rawStatus`. */
  rawBody: string | undefined;
  rawStatus = 200;
  /** A JSON-RPC error to answer for a block instead of its object. */
  errorFor: ((number: number) => {code: number; message: string} | undefined) | undefined;
  /** Methods besides eth_getBlockByNumber, each answered with its handler's result. */
  readonly methods = new Map<string, (params: unknown[]) => unknown>();
  /** Every call of a method of `methods` or of no handler, in order. */
  readonly calls: {method: string; params: unknown[]}[] = [];
  private server: Server | undefined;

  /** Starts listening on a free loopback port; resolves to the URL. */
  async start(): Promise<string> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        if (this.failNext > 0) {
          this.failNext--;
          res.writeHead(503).end("busy");
          return;
        }
        if (this.rawBody !== undefined) {
          res.writeHead(this.rawStatus, {"content-type": "application/json"}).end(this.rawBody);
          return;
        }
        const body = JSON.stringify(this.answer(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
        res.writeHead(200, {"content-type": "application/json"}).end(body);
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Back to serving every block, with no failure armed and nothing recorded. */
  reset(): void {
    this.requested.length = 0;
    this.head = Number.POSITIVE_INFINITY;
    this.failNext = 0;
    this.rawBody = undefined;
    this.rawStatus = 200;
    this.errorFor = undefined;
    this.methods.clear();
    this.calls.length = 0;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private answer(request: JsonRpcRequest | JsonRpcRequest[]): unknown {
    return Array.isArray(request) ? request.map((r) => this.answerOne(r)) : this.answerOne(request);
  }

  private answerOne(request: JsonRpcRequest): unknown {
    const {id} = request;
    if (request.method !== "eth_getBlockByNumber") {
      const method = String(request.method);
      const params = request.params ?? [];
      this.calls.push({method, params});
      const handler = this.methods.get(method);
      if (handler) return {jsonrpc: "2.0", id, result: handler(params)};
      return {
        jsonrpc: "2.0",
        id,
        error: {code: -32601, message: `the method ${method} does not exist/is not available`},
      };
    }
    const number = Number.parseInt(String(request.params?.[0]), 16);
    this.requested.push(number);
    const error = this.errorFor?.(number);
    if (error) return {jsonrpc: "2.0", id, error};
    const block = number <= this.head ? (this.blocks.get(number) ?? null) : null;
    return {jsonrpc: "2.0", id, result: block};
  }
}
