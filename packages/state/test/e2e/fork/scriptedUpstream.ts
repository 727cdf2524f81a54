/**
 * A JSON-RPC server on loopback (a free port) answering fixed JSON by method and parameters, single or
 * batched, as an upstream would: the fork's forwarding tests send it real HTTP requests and count them.
 * An unknown request is answered -32601.
 */
import {createServer, type Server} from "node:http";
import type {AddressInfo} from "node:net";

/** A fixed answer: a result, or a JSON-RPC error. */
export type ScriptedAnswer = {result: unknown} | {error: {code: number; message: string; data?: unknown}};

interface Request {
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

export class ScriptedUpstream {
  /** The answers, by `method` followed by its parameters' JSON (`scriptedKey`). */
  readonly answers = new Map<string, ScriptedAnswer>();
  /** Every call received (a batch counts each of its calls), as `scriptedKey`s. */
  readonly calls: string[] = [];
  private server: Server | undefined;

  /** Answers `method(params)` with `answer`. */
  on(method: string, params: unknown[], answer: ScriptedAnswer): this {
    this.answers.set(scriptedKey(method, params), answer);
    return this;
  }

  async start(): Promise<string> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Request | Request[];
        const answer = Array.isArray(body) ? body.map((r) => this.answer(r)) : this.answer(body);
        res.writeHead(200, {"content-type": "application/json"}).end(JSON.stringify(answer));
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private answer({id, method, params}: Request): unknown {
    const key = scriptedKey(String(method), (params ?? []) as unknown[]);
    this.calls.push(key);
    const answer = this.answers.get(key) ?? {
      error: {code: -32601, message: `the method ${String(method)} does not exist`},
    };
    return {jsonrpc: "2.0", id, ...answer};
  }
}

/** `method` and its parameters' JSON: how calls are recorded and matched. */
export function scriptedKey(method: string, params: unknown[]): string {
  return `${method} ${JSON.stringify(params)}`;
}
