// Per-IP limits (docs/gateway.md "Per-IP limits") on a node listening beyond loopback: a client
// reaching it by the machine's own non-loopback address is limited in requests per second (HTTP 429
// with Retry-After, -32005) and in connections, while loopback clients are not. Skipped on a machine
// without a non-loopback IPv4 address.
import {request} from "node:http";
import {networkInterfaces} from "node:os";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import WebSocket from "ws";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i !== undefined && !i.internal && i.family === "IPv4")?.address;

let node: RunningNode;

/** POSTs eth_blockNumber to `host` on the node's HTTP port: status, Retry-After and body. */
function post(host: string): Promise<{status: number; retryAfter: string | undefined; body: unknown}> {
  const port = new URL(node.httpUrl).port;
  return new Promise((resolve, reject) => {
    const req = request(
      {host, port, method: "POST", agent: false, headers: {"content-type": "application/json"}},
      (res) => {
        let text = "";
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () =>
          resolve({status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"], body: JSON.parse(text)}),
        );
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: []}));
  });
}

/** Opens a WebSocket to `host`: "open", or "closed" when the connection was cut before the handshake. */
function openWs(host: string): Promise<{state: "open" | "closed"; socket: WebSocket}> {
  const socket = new WebSocket(`ws://${host}:${new URL(node.wsUrl).port}`);
  return new Promise((resolve) => {
    socket.on("open", () => resolve({state: "open", socket}));
    socket.on("error", () => resolve({state: "closed", socket}));
  });
}

beforeAll(async () => {
  if (external === undefined) return;
  node = await startNode([
    "--rpc.http.host",
    "0.0.0.0",
    "--rpc.ws.host",
    "0.0.0.0",
    "--rpc.http.vhosts",
    `${external},127.0.0.1`,
    "--rpc.ws.vhosts",
    `${external},127.0.0.1`,
    "--unsafe.allowDevControlsOnPublicRpc",
    "--rpc.ipLimits.requestsPerSecond",
    "1",
    "--rpc.ipLimits.burst",
    "3",
    "--rpc.ipLimits.maxConnections",
    "2",
  ]);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe.skipIf(external === undefined)("per-IP limits", () => {
  it("answers 429 with Retry-After and -32005 past an address's burst, and never limits loopback", async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await post(external as string));
    expect(answers.slice(0, 3).map((a) => a.status)).toEqual([200, 200, 200]);
    const limited = answers.find((a) => a.status === 429);
    expect(Number(limited?.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(limited?.body).toMatchObject({
      id: 1,
      error: {code: -32005, message: expect.stringMatching(/limit exceeded/)},
    });
    for (let i = 0; i < 10; i++) expect((await post("127.0.0.1")).status).toBe(200);
  });

  it("closes connections past an address's cap, WebSocket and HTTP together, and admits again once one closes", async () => {
    const first = await openWs(external as string);
    const second = await openWs(external as string);
    expect([first.state, second.state]).toEqual(["open", "open"]);
    expect((await openWs(external as string)).state).toBe("closed");
    await expect(post(external as string)).rejects.toThrow();
    const local = await Promise.all([openWs("127.0.0.1"), openWs("127.0.0.1"), openWs("127.0.0.1")]);
    expect(local.map((c) => c.state)).toEqual(["open", "open", "open"]);
    for (const c of local) c.socket.close();
    first.socket.close();
    await new Promise((resolve) => first.socket.once("close", resolve));
    await expect.poll(async () => (await openWs(external as string)).state).toBe("open");
    second.socket.close();
  });
});
