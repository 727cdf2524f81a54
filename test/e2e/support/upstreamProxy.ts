// A JSON-RPC proxy on a free loopback port in front of a fork's upstream, for the fork tests: it counts the
// HTTP requests that reach it, and can answer HTTP 429 a number of times, refuse batches, EIP-1898 block
// objects or methods as some upstreams do, or rewrite the upstream's answers (a tampered upstream).
import {createServer, type Server} from "node:http";
import type {AddressInfo} from "node:net";

/** A JSON-RPC request as the proxy sees it. */
export interface ProxiedCall {
  method: string;
  params: unknown[];
}

export class UpstreamProxy {
  /** HTTP requests received (a batch counts one). */
  requests = 0;
  /** JSON-RPC calls received (a batch of n counts n). */
  calls: ProxiedCall[] = [];
  /** Answers HTTP 429 (Retry-After 0) to this many next requests. */
  tooManyRequests = 0;
  /** Answers a batch with a single error object, as an upstream without batch support. */
  refuseBatches = false;
  /** Answers -32602 to a call whose last parameter is an EIP-1898 block object. */
  refuseBlockObjects = false;
  /** Methods answered -32601 (method not found), as rskj answers eth_getProof. */
  missingMethods: string[] = [];
  /** While set, every call waits for it before it is forwarded (a slow upstream, a read held in flight). */
  stall: Promise<void> | undefined;
  /** Rewrites the result of each answered call. */
  tamper: ((call: ProxiedCall, result: unknown) => unknown) | undefined;
  private server: Server | undefined;

  constructor(private readonly upstream: string) {}

  /** Listens on a free loopback port; returns its URL. */
  async start(): Promise<string> {
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        this.handle(body).then(
          ({status, text}) => {
            res.writeHead(status, {"content-type": "application/json", "retry-after": "0"});
            res.end(text);
          },
          (e: Error) => {
            res.writeHead(502);
            res.end(e.message);
          },
        );
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Stops listening and drops open connections (the upstream looks killed). */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  reset(): void {
    this.requests = 0;
    this.calls = [];
  }

  private async handle(body: string): Promise<{status: number; text: string}> {
    this.requests++;
    if (this.tooManyRequests > 0) {
      this.tooManyRequests--;
      return {status: 429, text: "too many requests"};
    }
    const parsed = JSON.parse(body) as unknown;
    const batch = Array.isArray(parsed);
    if (batch && this.refuseBatches) {
      return {
        status: 200,
        text: JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: {code: -32600, message: "batch requests are not supported"},
        }),
      };
    }
    const items = (batch ? parsed : [parsed]) as {id: unknown; method: string; params?: unknown[]}[];
    const answers = await Promise.all(items.map((item) => this.answer(item)));
    return {status: 200, text: JSON.stringify(batch ? answers : answers[0])};
  }

  private async answer(item: {id: unknown; method: string; params?: unknown[]}): Promise<unknown> {
    const call = {method: item.method, params: item.params ?? []};
    this.calls.push(call);
    await this.stall;
    if (this.missingMethods.includes(call.method)) {
      return {
        jsonrpc: "2.0",
        id: item.id,
        error: {code: -32601, message: `The method ${call.method} does not exist/is not available`},
      };
    }
    const last = call.params[call.params.length - 1];
    if (this.refuseBlockObjects && typeof last === "object" && last !== null && "blockHash" in last) {
      return {jsonrpc: "2.0", id: item.id, error: {code: -32602, message: "invalid argument 1: hex string expected"}};
    }
    const response = await fetch(this.upstream, {
      method: "POST",
      headers: {"content-type": "application/json"},
      body: JSON.stringify({...item, jsonrpc: "2.0"}),
    });
    const answer = (await response.json()) as {result?: unknown};
    if (this.tamper && "result" in answer) answer.result = this.tamper(call, answer.result);
    return answer;
  }
}
