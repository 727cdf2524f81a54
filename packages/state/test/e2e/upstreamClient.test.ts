// UpstreamClient against a scripted JSON-RPC server on a free loopback port (docs/forking.md §1.3):
// batches split by size, a rate-limit answer retried for the unanswered calls only, a rate-limited batch
// not taken for a refused one, and the precise errors for what is not retried.
import {createServer, type Server} from "node:http";
import type {AddressInfo} from "node:net";
import {afterAll, beforeAll, beforeEach, describe, expect, it} from "vitest";
import {ForkError, ForkErrorCode} from "../../src/fork/errors.ts";
import {UpstreamClient} from "../../src/fork/upstreamClient.ts";
import type {UpstreamClientOptions} from "../../src/options.ts";

type Call = {id: unknown; method: string; params: unknown[]};
/** What the server answers to one HTTP request: status and body, or nothing at all (a hang). */
type Script = (calls: Call[], batch: boolean) => {status: number; body: unknown} | "hang";

const OPTIONS: UpstreamClientOptions = {requestsPerSecond: 0, batchSize: 2, retries: 2, timeoutMs: 10_000};
const echo: Script = (calls, batch) => {
  const answers = calls.map((c) => ({jsonrpc: "2.0", id: c.id, result: c.params[0]}));
  return {status: 200, body: batch ? answers : answers[0]};
};

let server: Server;
let url = "";
let script: Script = echo;
let requests: Call[][] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    req.on("end", () => {
      const parsed = JSON.parse(text) as Call | Call[];
      const calls = Array.isArray(parsed) ? parsed : [parsed];
      requests.push(calls);
      const answer = script(calls, Array.isArray(parsed));
      if (answer === "hang") return;
      res.writeHead(answer.status, {"content-type": "application/json", "retry-after": "0"});
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  script = echo;
  requests = [];
});

describe("UpstreamClient", () => {
  it("sends calls made together as batches of at most batchSize", async () => {
    const client = new UpstreamClient(url, OPTIONS);
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => client.call("echo", [n], `value ${n}`)));
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(requests.map((r) => r.length).sort()).toEqual([1, 2, 2]);
  });

  it("retries only the calls answered with a rate-limit error", async () => {
    let limited = 1;
    script = (calls, batch) => {
      const answers = calls.map((c) =>
        c.params[0] === 2 && limited-- > 0
          ? {jsonrpc: "2.0", id: c.id, error: {code: -32005, message: "limit exceeded"}}
          : {jsonrpc: "2.0", id: c.id, result: c.params[0]},
      );
      return {status: 200, body: batch ? answers : answers[0]};
    };
    const client = new UpstreamClient(url, OPTIONS);
    expect(await Promise.all([client.call("echo", [1], "a"), client.call("echo", [2], "b")])).toEqual([1, 2]);
    expect(requests.map((r) => r.map((c) => c.params[0]))).toEqual([[1, 2], [2]]);
  });

  it("retries a batch answered with one rate-limit error object instead of taking it for a refusal", async () => {
    let limited = 1;
    script = (calls, batch) =>
      limited-- > 0
        ? {status: 200, body: {jsonrpc: "2.0", id: null, error: {code: -32005, message: "rate limit"}}}
        : echo(calls, batch);
    const client = new UpstreamClient(url, OPTIONS);
    expect(await Promise.all([client.call("echo", [1], "a"), client.call("echo", [2], "b")])).toEqual([1, 2]);
    expect(requests.map((r) => r.length)).toEqual([2, 2]);
  });

  it("fails a call on an HTTP status that is not retried, naming the upstream and the key", async () => {
    script = () => ({status: 401, body: {message: "unauthorized"}});
    const client = new UpstreamClient(url, OPTIONS);
    await expect(client.call("eth_getBalance", ["0x01"], "account 0x01")).rejects.toMatchObject({
      type: {code: ForkErrorCode.UPSTREAM_HTTP_STATUS, status: 401},
      message: `upstream ${url} answered HTTP 401 reading account 0x01: "{\\"message\\":\\"unauthorized\\"}"`,
    });
    expect(requests).toHaveLength(1);
  });

  it("fails a call the upstream answers with an error, with its code and message", async () => {
    script = (calls) => ({
      status: 200,
      body: {jsonrpc: "2.0", id: calls[0]?.id, error: {code: -32000, message: "header not found"}},
    });
    const client = new UpstreamClient(url, OPTIONS);
    await expect(client.call("eth_getCode", ["0x01"], "code 0x01")).rejects.toMatchObject({
      type: {
        code: ForkErrorCode.UPSTREAM_ERROR_ANSWER,
        url,
        key: "code 0x01",
        rpcCode: -32000,
        rpcMessage: "header not found",
      },
    });
  });

  it("gives up on an upstream that does not answer within the timeout, after its retries", async () => {
    script = () => "hang";
    const client = new UpstreamClient(url, {...OPTIONS, retries: 1, timeoutMs: 200});
    await expect(client.call("eth_chainId", [], "the chain id")).rejects.toThrow(
      new ForkError(
        {
          code: ForkErrorCode.UPSTREAM_UNREACHABLE,
          url,
          key: "the chain id",
          attempts: 2,
          reason: "no answer within 200 ms",
        },
        `upstream ${url}: reading the chain id failed 2 times (no answer within 200 ms)`,
      ),
    );
    expect(requests).toHaveLength(2);
  });

  it("fails a body that is not a JSON-RPC answer", async () => {
    script = () => ({status: 200, body: "hello"});
    const client = new UpstreamClient(url, OPTIONS);
    await expect(client.call("eth_chainId", [], "the chain id")).rejects.toMatchObject({
      type: {code: ForkErrorCode.UPSTREAM_BAD_ANSWER},
    });
  });
});
