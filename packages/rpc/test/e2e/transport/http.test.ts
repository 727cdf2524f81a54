/** The HTTP transport: methods, content type, body limit, CORS, statuses, timeouts, disconnects. */
import {request as httpRequest} from "node:http";
import {connect} from "node:net";
import {getChainspec} from "@xchain/chainspec";
import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it, vi} from "vitest";
import {buildFixture, type Fixture} from "../../support/fixture.ts";
import {TestNode} from "../../support/node.ts";
import {probeCall} from "../../support/probe.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  node = await TestNode.start({rpc: {maxBodyBytes: 4096, corsOrigins: ["https://app.example"]}});
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

const chainId = JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_chainId", params: []});

/** A raw request over a fresh socket: what comes back, and whether the server closed the connection. */
function rawExchange(port: number, head: string, body: string): Promise<{response: string; closed: boolean}> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let response = "";
    socket.on("data", (d) => {
      response += d.toString();
    });
    socket.on("error", () => undefined);
    socket.on("close", () => resolve({response, closed: true}));
    socket.on("connect", () => {
      socket.write(head);
      socket.write(body, () => undefined);
    });
    setTimeout(() => reject(new Error(`no close; got ${response.slice(0, 80)}`)), 5_000);
  });
}

describe("HTTP transport", () => {
  it("accepts POST only", async () => {
    const res = await fetch(node.url);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("wants a JSON content type", async () => {
    expect((await node.post(chainId, {"content-type": "text/plain"})).status).toBe(415);
    expect((await node.post(chainId, {"content-type": "application/json; charset=utf-8"})).status).toBe(200);
  });

  it("answers with application/json", async () => {
    const reply = await node.post(chainId);
    expect(reply.headers.get("content-type")).toBe("application/json");
  });

  it("refuses a body over maxBodyBytes with 413, closes the connection and keeps serving", async () => {
    const big = JSON.stringify({jsonrpc: "2.0", id: 1, method: "web3_sha3", params: [`0x${"ab".repeat(4096)}`]});
    // Announced by its Content-Length.
    const announced = await rawExchange(
      node.server.httpPort!,
      `POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n`,
      big,
    );
    expect(announced.response).toMatch(/^HTTP\/1\.1 413/);
    expect(announced.closed).toBe(true);
    // Streamed without a length: cut off while reading.
    const chunk = big.slice(0, 5000);
    const streamed = await rawExchange(
      node.server.httpPort!,
      "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
      `${chunk.length.toString(16)}\r\n${chunk}\r\n`,
    );
    expect(streamed.response).toMatch(/^HTTP\/1\.1 413/);
    expect(JSON.parse((await node.post(chainId)).text).result).toBe("0x21");
  });

  it("names the head in every JSON-RPC answer, read when the answer is written", async () => {
    const headers = async () => {
      const reply = await node.post(chainId);
      return [reply.headers.get("x-xchain-head"), reply.headers.get("x-xchain-head-hash")];
    };
    const {number, hash} = node.chain.head();
    expect(await headers()).toEqual([String(number), toData(hash)]);
    const block = await node.mine();
    expect(await headers()).toEqual([String(block.header.number), toData(block.hash())]);
    // An error answer too.
    const refused = await node.post("{");
    expect(refused.status).toBe(400);
    expect(refused.headers.get("x-xchain-head")).toBe(String(block.header.number));
    // A page of an allowed origin may read them.
    const allowed = await node.post(chainId, {origin: "https://app.example"});
    expect(allowed.headers.get("access-control-expose-headers")).toBe("X-Xchain-Head, X-Xchain-Head-Hash");
  });

  it("sends CORS headers to allowed origins only, and answers preflights", async () => {
    const allowed = await node.post(chainId, {origin: "https://app.example"});
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const other = await node.post(chainId, {origin: "https://evil.example"});
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await fetch(node.url, {
      method: "OPTIONS",
      headers: {origin: "https://app.example", "access-control-request-headers": "content-type"},
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type");
  });

  it("matches rpc.corsOrigins as origin rules: a rule's scheme must match, a rule without port allows any", async () => {
    const otherPort = await node.post(chainId, {origin: "https://app.example:8443"});
    expect(otherPort.headers.get("access-control-allow-origin")).toBe("https://app.example:8443");
    const otherScheme = await node.post(chainId, {origin: "http://app.example"});
    expect(otherScheme.headers.get("access-control-allow-origin")).toBeNull();
    const loopback = await node.post(chainId, {origin: "http://localhost:3000"});
    expect(loopback.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers loopback origins by default on regtest, none on mainnet (docs/rpc.md §5.4)", async () => {
    const regtest = await TestNode.start();
    const mainnet = await TestNode.start({rpcChainspec: getChainspec("mainnet")});
    try {
      for (const origin of ["http://localhost:3000", "http://127.0.0.1:5173", "http://[::1]:8080"]) {
        const answer = await regtest.post(chainId, {origin});
        expect(answer.headers.get("access-control-allow-origin")).toBe(origin);
        expect(answer.headers.get("vary")).toBe("Origin");
        expect((await mainnet.post(chainId, {origin})).headers.get("access-control-allow-origin")).toBeNull();
      }
      const foreign = await regtest.post(chainId, {origin: "http://evil.example"});
      expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await regtest.close();
      await mainnet.close();
    }
  });

  it("uses HTTP 400 only for -32700, -32600 and -32602 at the top level (docs/protocol/errors.md)", async () => {
    const status = async (method: string, params: unknown[]) =>
      (await node.post(JSON.stringify({jsonrpc: "2.0", id: 1, method, params}))).status;
    expect(await status("eth_getBalance", ["0x1"])).toBe(400);
    expect(await status("eth_nothing", [])).toBe(200);
    expect(await status("eth_call", [{to: toData(fixture.contract), data: toData(probeCall.fail())}, "latest"])).toBe(
      200,
    );
  });

  it("answers -32011 past requestTimeoutMs and for a response over maxResponseBytes (docs/protocol/errors.md)", async () => {
    const limited = await TestNode.start({rpc: {requestTimeoutMs: 1, maxResponseBytes: 200}});
    try {
      const f = await buildFixture(limited);
      const slow = {to: toData(f.contract), data: toData(probeCall.burn(300n))};
      expect(await limited.error("eth_estimateGas", [slow])).toEqual({
        code: -32011,
        message: "Execution has got timeout out.",
      });
    } finally {
      await limited.close();
    }
    const small = await TestNode.start({rpc: {maxResponseBytes: 200}});
    try {
      expect(await small.error("eth_getBlockByNumber", ["latest", false])).toEqual({
        code: -32011,
        message: "Response too large: more than 200 bytes",
      });
    } finally {
      await small.close();
    }
  });

  it("survives clients that disconnect mid-request", async () => {
    const slow = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_estimateGas",
      params: [{to: toData(fixture.contract), data: toData(probeCall.burn(2_000n))}],
    });
    await Promise.all(
      Array.from(
        {length: 20},
        () =>
          new Promise<void>((resolve) => {
            const req = httpRequest(node.url, {method: "POST", headers: {"content-type": "application/json"}});
            req.on("error", () => resolve());
            req.end(slow, () =>
              setTimeout(() => {
                req.destroy();
                resolve();
              }, 2),
            );
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(JSON.parse((await node.post(chainId)).text).result).toBe("0x21");
  });

  it("cuts a client that trickles its body at bodyTimeoutMs with 408, logging it at debug only", async () => {
    const log = {debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn(), child: () => log};
    const limited = await TestNode.start({rpc: {bodyTimeoutMs: 1_000}, deps: {logger: log}});
    try {
      const started = Date.now();
      const cut = await new Promise<{response: string; elapsed: number}>((resolve) => {
        const socket = connect(limited.server.httpPort!, "127.0.0.1");
        let response = "";
        const trickle = setInterval(() => socket.write("["), 100);
        socket.on("data", (d) => {
          response += d.toString();
        });
        socket.on("error", () => undefined);
        socket.on("close", () => {
          clearInterval(trickle);
          resolve({response, elapsed: Date.now() - started});
        });
        socket.write(
          "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
        );
      });
      expect(cut.response).toMatch(/^HTTP\/1\.1 408/);
      // Not before bodyTimeoutMs; the trickle alone would take 100 s to finish the body, so the 408
      // is the timeout's (how soon after it is the machine's business).
      expect(cut.elapsed).toBeGreaterThanOrEqual(1_000);
      await vi.waitFor(
        () =>
          expect(log.debug).toHaveBeenCalledWith(
            expect.objectContaining({reason: "http body timeout"}),
            "rpc client dropped",
          ),
        {timeout: 20_000},
      );
      expect(log.error).not.toHaveBeenCalled();
      expect(log.warn).not.toHaveBeenCalled();
    } finally {
      await limited.close();
    }
    // Closing the server writes the pending summary.
    expect(log.warn).toHaveBeenCalledWith(
      {dropped: 1, reasons: {"http body timeout": 1}},
      "dropped 1 rpc client in the last 60 s (http body timeout: 1)",
    );
  });

  it("serves many concurrent requests", async () => {
    const replies = await Promise.all(Array.from({length: 200}, () => node.post(chainId)));
    expect(replies.every((r) => r.status === 200 && JSON.parse(r.text).result === "0x21")).toBe(true);
  });
});
