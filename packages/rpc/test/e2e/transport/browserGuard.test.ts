/** Browser-origin defences at the listeners: the Host check of both and the Origin check of WebSocket handshakes. */
import {request as httpRequest} from "node:http";
import {connect} from "node:net";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {TestNode} from "../../support/node.ts";

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];
const chainId = JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_chainId", params: []});

interface Answer {
  status: number;
  body: string;
}

/** Browser-origin defences at the listeners: the Host check of both and the Origin check of WebSocket handshakes. */
function post(port: number, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {host: "127.0.0.1", port, method: "POST", headers: {"content-type": "application/json", ...headers}},
      (res) => {
        let body = "";
        res.on("data", (d) => {
          body += d;
        });
        res.on("end", () => resolve({status: res.statusCode ?? 0, body}));
      },
    );
    req.on("error", reject);
    req.end(chainId);
  });
}

/** Browser-origin defences at the listeners: the Host check of both and the Origin check of WebSocket handshakes. */
function handshake(port: number, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: "127.0.0.1",
      port,
      headers: {
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
        ...headers,
      },
    });
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve({status: res.statusCode ?? 0, body: ""});
    });
    req.on("response", (res) => {
      let body = "";
      res.on("data", (d) => {
        body += d;
      });
      res.on("end", () => resolve({status: res.statusCode ?? 0, body}));
    });
    req.on("error", reject);
    req.end();
  });
}

const refused = (message: string) => ({jsonrpc: "2.0", id: null, error: {code: -32600, message}});

describe("a node with the default lists", () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await TestNode.start();
  });
  afterAll(() => node.close());

  it("refuses an HTTP request with a foreign Host: 403 and a JSON-RPC error naming it", async () => {
    const answer = await post(node.server.httpPort!, {host: "evil.example:4444"});
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual(
      refused("invalid host specified: evil.example:4444 is not in rpc.http.vhosts"),
    );
  });

  it.each(["localhost", "localhost:4444", "127.0.0.1:1", "[::1]:4444"])("serves HTTP with Host %s", async (host) => {
    const answer = await post(node.server.httpPort!, {host});
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).result).toBe("0x21");
  });

  it("refuses an HTTP/1.0 request without Host", async () => {
    const response = await new Promise<string>((resolve) => {
      const socket = connect(node.server.httpPort!, "127.0.0.1");
      let text = "";
      socket.on("data", (d) => {
        text += d;
      });
      socket.on("close", () => resolve(text));
      socket.write(
        `POST / HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: ${chainId.length}\r\n\r\n${chainId}`,
      );
    });
    expect(response).toMatch(/^HTTP\/1\.1 403/);
    expect(response).toContain("invalid host specified: the request has no Host header");
  });

  it("refuses a WebSocket handshake from a foreign Origin with 403 before the upgrade", async () => {
    const answer = await handshake(node.server.wsPort!, {Origin: "http://evil.example"});
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual(
      refused("origin not allowed: http://evil.example is not in rpc.ws.origins"),
    );
  });

  it("refuses a WebSocket handshake with a foreign Host, whatever its Origin", async () => {
    const answer = await handshake(node.server.wsPort!, {Host: "evil.example"});
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual(refused("invalid host specified: evil.example is not in rpc.ws.vhosts"));
  });

  it.each<Record<string, string>>([
    {},
    {Origin: "http://localhost:3000"},
    {Origin: "http://127.0.0.1:8080"},
    {Origin: "https://[::1]"},
    {Host: "[::1]:4445"},
  ])("upgrades a handshake with %j", async (headers) => {
    expect((await handshake(node.server.wsPort!, headers)).status).toBe(101);
  });
});

describe("a node with its lists opened", () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await TestNode.start({
      rpc: {
        http: {enabled: true, host: "127.0.0.1", port: 0, vhosts: ["*"]},
        ws: {enabled: true, host: "127.0.0.1", port: 0, vhosts: ["node.example"], origins: ["http://app.example:3000"]},
      },
    });
  });
  afterAll(() => node.close());

  it("serves any Host with vhosts *", async () => {
    expect((await post(node.server.httpPort!, {host: "evil.example"})).status).toBe(200);
  });

  it("upgrades listed origins and names only; the list replaces the loopback defaults", async () => {
    const port = node.server.wsPort!;
    const host = "node.example:4445";
    expect((await handshake(port, {Host: host, Origin: "http://app.example:3000"})).status).toBe(101);
    expect((await handshake(port, {Host: host})).status).toBe(101);
    expect((await handshake(port, {Host: host, Origin: "http://app.example:3001"})).status).toBe(403);
    expect((await handshake(port, {Host: host, Origin: "http://localhost:3000"})).status).toBe(403);
    expect((await handshake(port, {Host: "localhost"})).status).toBe(403);
  });
});

describe("origins *", () => {
  it("upgrades a handshake from any Origin", async () => {
    const node = await TestNode.start({
      rpc: {ws: {enabled: true, host: "127.0.0.1", port: 0, vhosts: LOOPBACK, origins: ["*"]}},
    });
    try {
      expect((await handshake(node.server.wsPort!, {Origin: "http://evil.example"})).status).toBe(101);
    } finally {
      await node.close();
    }
  });
});
