// End-to-end: a default regtest node refuses what a web page could send it (docs/rpc.md §5.4): a
// WebSocket from a foreign Origin and an HTTP request with a foreign Host get 403; Node clients
// (no Origin, a loopback Host) and loopback pages are served, over HTTP with CORS headers (a
// preflight answered), which a foreign page's request does not get.
import {request} from "node:http";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import WebSocket from "ws";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

let node: RunningNode;
beforeAll(async () => {
  node = await startNode();
});
afterAll(async () => {
  await node?.stop();
});

type Outcome = {refused: {status: number; body: string}} | {accounts: string[]};

/** Opens a WebSocket with `origin` and asks eth_accounts: the accounts, or the refused handshake. */
function accountsOverWs(origin?: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(node.wsUrl, origin === undefined ? {} : {origin});
    socket.on("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (d: Buffer) => {
        body += d;
      });
      res.on("end", () => resolve({refused: {status: res.statusCode ?? 0, body}}));
    });
    socket.on("open", () => socket.send(JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_accounts", params: []})));
    socket.on("message", (data) => {
      socket.close();
      resolve({accounts: JSON.parse(String(data)).result});
    });
    socket.on("error", reject);
  });
}

/** POSTs eth_accounts with the given Host header. */
function postWithHost(host: string): Promise<{status: number; body: string}> {
  return new Promise((resolve, reject) => {
    const req = request(node.httpUrl, {method: "POST", headers: {host, "content-type": "application/json"}}, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => {
        body += d;
      });
      res.on("end", () => resolve({status: res.statusCode ?? 0, body}));
    });
    req.on("error", reject);
    req.end(JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_accounts", params: []}));
  });
}

describe("browser-origin defences of a default node", () => {
  it("refuses a WebSocket from http://evil.example before the upgrade: no eth_accounts", async () => {
    const outcome = await accountsOverWs("http://evil.example");
    expect(outcome).toEqual({
      refused: {
        status: 403,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: {code: -32600, message: "origin not allowed: http://evil.example is not in rpc.ws.origins"},
        }),
      },
    });
  });

  it("refuses an HTTP request with Host evil.example with 403", async () => {
    const answer = await postWithHost("evil.example:4444");
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error).toEqual({
      code: -32600,
      message: "invalid host specified: evil.example:4444 is not in rpc.http.vhosts",
    });
    expect(answer.body).not.toContain("result");
  });

  it("serves Node clients (no Origin) and loopback pages", async () => {
    const plain = await accountsOverWs();
    expect("accounts" in plain && plain.accounts.length).toBeGreaterThan(0);
    expect(await accountsOverWs("http://localhost:3000")).toEqual(plain);
    expect(await rpc<string[]>(node.httpUrl, "eth_accounts")).toEqual("accounts" in plain ? plain.accounts : []);
    expect((await postWithHost("localhost:4444")).status).toBe(200);
  });

  it("answers a loopback page over HTTP with CORS, a preflight included; a foreign page gets no CORS headers", async () => {
    for (const origin of ["http://localhost:3000", "http://127.0.0.1:5173", "http://[::1]:8080"]) {
      const preflight = await fetch(node.httpUrl, {
        method: "OPTIONS",
        headers: {origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type"},
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
      expect(preflight.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
      expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type");
      const answer = await fetch(node.httpUrl, {
        method: "POST",
        headers: {origin, "content-type": "application/json"},
        body: JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_chainId", params: []}),
      });
      expect(answer.headers.get("access-control-allow-origin")).toBe(origin);
      expect(((await answer.json()) as {result: string}).result).toBe("0x21");
    }
    const foreign = await fetch(node.httpUrl, {
      method: "OPTIONS",
      headers: {origin: "http://evil.example", "access-control-request-method": "POST"},
    });
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    const foreignPost = await fetch(node.httpUrl, {
      method: "POST",
      headers: {origin: "http://evil.example", "content-type": "application/json"},
      body: JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_chainId", params: []}),
    });
    expect(foreignPost.headers.get("access-control-allow-origin")).toBeNull();
  });
});
