// The API-key gateway on a running node (docs/gateway.md): ethers and viem with the key in the
// URL over HTTP and WebSocket, 401 for keys in any other place, per-key permissions, state
// override and rate, and keys added and revoked with the CLI while the node runs.
import {request} from "node:http";
import {JsonRpcProvider, WebSocketProvider} from "ethers";
import {createPublicClient, http, webSocket} from "viem";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import WebSocket from "ws";
import {addGatewayKey} from "../support/gatewayKeys.ts";
import {JsonRpcFault, rpc} from "../support/jsonRpc.ts";
import {type RunningNode, runXchain, startNode, tempDataDir} from "../support/xchainProcess.ts";

const COW = "0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826";

let node: RunningNode;
let dataDir: string;
const keys: Record<string, string> = {};

/** `xchain keys add` on the node's data directory: the printed secret and id. */
const addKey = (args: string[]) => addGatewayKey(dataDir, args);

/** A raw HTTP POST to `path` (no URL normalization) with `headers`: status, Retry-After and parsed body. */
function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{status: number; retryAfter: string | undefined; body: Record<string, unknown>}> {
  const url = new URL(node.httpUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: "POST",
        headers: {"content-type": "application/json", ...headers},
      },
      (res) => {
        let text = "";
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers["retry-after"],
            body: JSON.parse(text || "null"),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const blockNumber = {jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: []};

/** Opens a WebSocket at `path`: the open socket, or the status its handshake was refused with. */
function openWs(path: string): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${node.wsUrl}${path}`);
    socket.on("open", () => resolve(socket));
    socket.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    socket.on("error", reject);
  });
}

beforeAll(async () => {
  dataDir = tempDataDir();
  keys.main = (
    await addKey(["--label", "main", "--rps", "10000", "--burst", "10000", "--state-override", "off"])
  ).secret;
  keys.slow = (await addKey(["--rps", "1", "--burst", "2"])).secret;
  keys.rich = (
    await addKey(["--namespaces", "eth,evm", "--methods", "xchain_getStorageBytesAt", "--state-override", "on"])
  ).secret;
  node = await startNode(["--rpc.gateway.enabled"], dataDir);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe("API-key gateway", () => {
  it("serves ethers and viem with the key in the URL, over HTTP and WebSocket", async () => {
    const provider = new JsonRpcProvider(`${node.httpUrl}/${keys.main}`, undefined, {staticNetwork: true});
    expect(await provider.getBlockNumber()).toBeGreaterThanOrEqual(0);
    expect(await provider.getBalance(COW)).toBeGreaterThan(0n);
    const wsProvider = new WebSocketProvider(`${node.wsUrl}/${keys.main}`);
    expect(await wsProvider.getBlockNumber()).toBeGreaterThanOrEqual(0);
    await wsProvider.destroy();
    const viaHttp = createPublicClient({transport: http(`${node.httpUrl}/${keys.main}`)});
    expect(await viaHttp.getBalance({address: COW})).toBeGreaterThan(0n);
    const viaWs = createPublicClient({transport: webSocket(`${node.wsUrl}/${keys.main}`)});
    expect(await viaWs.getBlockNumber()).toBeGreaterThanOrEqual(0n);
    await (await viaWs.transport.getRpcClient()).close();
  });

  it("answers 401 with a JSON-RPC error for a key missing, unknown or in any other place", async () => {
    const k = keys.main as string;
    const cases: [string, Record<string, string>][] = [
      ["/", {}],
      [`/${"0".repeat(64)}`, {}],
      [`/?key=${k}`, {}],
      [`/?apikey=${k}`, {}],
      ["/", {authorization: `Bearer ${k}`}],
      ["/", {"x-api-key": k}],
      [`/${k}/`, {}],
      [`/${k}?`, {}],
      [`/${k.slice(0, 63)}%${k.charCodeAt(63).toString(16)}`, {}],
      [`/${k}${k}`, {}],
      [`/${k}/../${k}`, {}],
      [`/../${k}`, {}],
      [`/${k.toUpperCase()}`, {}],
    ];
    for (const [path, headers] of cases) {
      const answer = await post(path, blockNumber, headers);
      expect(answer.status, path).toBe(401);
      expect(answer.body, path).toMatchObject({jsonrpc: "2.0", id: null, error: {code: -32001}});
    }
    expect(await openWs("/")).toBe(401);
    expect(await openWs(`/${"1".repeat(64)}`)).toBe(401);
    expect(await openWs(`/?key=${k}`)).toBe(401);
  });

  it("refuses a method the key is not granted with -32601 naming why, and serves granted ones", async () => {
    await expect(rpc(`${node.httpUrl}/${keys.main}`, "evm_mine")).rejects.toMatchObject({
      code: -32601,
      message: expect.stringMatching(/evm_mine .*not granted the evm namespace/),
    });
    // anvil's and Hardhat's controls likewise, on regtest where the node serves them (docs/gateway.md §2).
    for (const [method, params, namespace] of [
      ["anvil_setBalance", [COW, "0x1"], "anvil"],
      ["hardhat_mine", [], "hardhat"],
      ["anvil_impersonateAccount", [COW], "anvil"],
    ] as const) {
      await expect(rpc(`${node.httpUrl}/${keys.main}`, method, [...params])).rejects.toMatchObject({
        code: -32601,
        message: expect.stringContaining(`not granted the ${namespace} namespace`),
      });
    }
    await expect(
      rpc(`${node.httpUrl}/${keys.main}`, "eth_sendUnsignedTransaction", [{from: COW, to: COW}]),
    ).rejects.toThrow(/development control of the anvil namespace/);
    await expect(
      rpc(`${node.httpUrl}/${keys.main}`, "xchain_getStorageBytesAt", [COW, "0x0", "latest"]),
    ).rejects.toThrow(/restricted/);
    await expect(rpc(`${node.httpUrl}/${keys.rich}`, "net_version")).rejects.toBeInstanceOf(JsonRpcFault);
    expect(await rpc(`${node.httpUrl}/${keys.rich}`, "xchain_getStorageBytesAt", [COW, "0x0", "latest"])).toBeDefined();
  });

  it("takes a state override only from a key allowed it", async () => {
    const call = [{to: COW, data: "0x"}, "latest", {[COW]: {code: "0x60056000526001601ff3"}}];
    await expect(rpc(`${node.httpUrl}/${keys.main}`, "eth_call", call)).rejects.toThrow(/not allowed for API key/);
    expect(await rpc(`${node.httpUrl}/${keys.rich}`, "eth_call", call)).toBe("0x05");
  });

  it("answers 429 with Retry-After to a key over its rate while another key is served", async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(await post(`/${keys.slow}`, blockNumber));
      expect((await post(`/${keys.main}`, blockNumber)).status).toBe(200);
    }
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(Number(limited[0]?.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(limited[0]?.body).toMatchObject({
      id: 1,
      error: {code: -32005, message: expect.stringMatching(/^limit exceeded/)},
    });
  });

  it("picks up a key added while running, and closes a revoked key's WebSocket", async () => {
    const added = await addKey(["--label", "late"]);
    // The limit only bounds a hang: without the keys file's watcher the key is never served.
    await expect
      .poll(async () => (await post(`/${added.secret}`, blockNumber)).status, {timeout: 20_000, interval: 50})
      .toBe(200);

    const socket = (await openWs(`/${added.secret}`)) as WebSocket;
    const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
    const exit = await runXchain(["keys", "revoke", added.id, "--datadir", dataDir]);
    expect(exit.code, exit.stderr).toBe(0);
    expect(await closed).toBe(1008);
    expect((await post(`/${added.secret}`, blockNumber)).status).toBe(401);
  });
});
