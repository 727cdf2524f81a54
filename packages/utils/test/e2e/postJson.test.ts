// postJson against a real HTTP server on a free loopback port: one kept-alive connection for requests in a
// row, and each way a request fails transiently (no answer in time, an answer cut short, a refused
// connection, 429 with Retry-After) told apart from an abort.
import {createServer, type Server} from "node:http";
import type {AddressInfo} from "node:net";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {postJson, TransientFailure} from "../../src/jsonRpcHttp.ts";

/** What the server does with the next request. */
let behaviour: "echo" | "hang" | "cut" | "limited" = "echo";
let connections = 0;
let server: Server;
let url = "";

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (behaviour === "hang") return;
    if (behaviour === "limited") {
      res.writeHead(429, {"retry-after": "2"}).end("slow down");
    } else if (behaviour === "cut") {
      res.writeHead(200, {"content-type": "application/json", "content-length": "100"});
      res.write('{"jsonrpc":"2.0",');
      res.socket?.destroy();
    } else {
      const {id, params} = JSON.parse(Buffer.concat(chunks).toString()) as {id: number; params: unknown[]};
      res
        .writeHead(200, {"content-type": "application/json"})
        .end(JSON.stringify({jsonrpc: "2.0", id, result: params}));
    }
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The failure `post` rejects with, which must be transient (a value it resolves with fails the check). */
async function transient(post: Promise<unknown>): Promise<TransientFailure> {
  const error: unknown = await post.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TransientFailure);
  return error as TransientFailure;
}

describe("postJson", () => {
  it("answers requests in a row over one kept-alive connection", async () => {
    behaviour = "echo";
    connections = 0;
    for (let i = 0; i < 5; i++) {
      const answer = await postJson(url, {jsonrpc: "2.0", id: i, method: "m", params: [i, "é"]}, 5_000);
      expect(answer).toEqual({
        status: 200,
        body: JSON.stringify({jsonrpc: "2.0", id: i, result: [i, "é"]}),
        parsed: {jsonrpc: "2.0", id: i, result: [i, "é"]},
      });
    }
    expect(connections).toBe(1);
  });

  it("fails transiently without an answer in time, with an answer cut short, or 429 with the server's wait", async () => {
    behaviour = "hang";
    expect((await transient(postJson(url, {}, 200))).message).toBe("no answer within 200 ms");
    behaviour = "cut";
    expect((await transient(postJson(url, {}, 5_000))).message).toMatch(/closed before the answer|aborted|ECONNRESET/);
    behaviour = "limited";
    const limited = await transient(postJson(url, {}, 5_000));
    expect([limited.message, limited.retryAfterMs]).toEqual(["HTTP 429", 2000]);
    behaviour = "echo";
    expect((await postJson(url, {id: 1, params: []}, 5_000)).status).toBe(200);
  });

  it("fails transiently on a refused connection, and with the abort's reason once aborted", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect((await transient(postJson(`http://127.0.0.1:${port}`, {}, 5_000))).message).toBe("ECONNREFUSED");

    behaviour = "hang";
    const abort = new AbortController();
    const post = postJson(url, {}, 5_000, abort.signal);
    setTimeout(() => abort.abort(new Error("closed by the caller")), 20);
    await expect(post).rejects.toThrow("closed by the caller");
    await expect(postJson(url, {}, 5_000, abort.signal)).rejects.toThrow("closed by the caller");
  });
});
