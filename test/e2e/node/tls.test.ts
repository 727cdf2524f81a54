// TLS on the RPC ports (docs/gateway.md "TLS"): a node started with rpc.tls.cert and rpc.tls.key
// serves HTTPS and WSS to clients that trust its self-signed certificate, and refuses to start with
// one file alone or an invalid one, in one line naming the setting.
import {Agent, get} from "node:https";
import {makeSelfSignedCertificate, type SelfSignedCertificate} from "@xchain/test-utils";
import {FetchRequest, JsonRpcProvider, WebSocketProvider} from "ethers";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import WebSocket from "ws";
import {type RunningNode, refusedStart, startNode} from "../support/xchainProcess.ts";

const COW = "0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826";

let node: RunningNode;
let certificate: SelfSignedCertificate;

beforeAll(async () => {
  certificate = makeSelfSignedCertificate();
  node = await startNode(["--rpc.tls.cert", certificate.certPath, "--rpc.tls.key", certificate.keyPath]);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

/** An ethers provider over HTTPS trusting the test certificate only. */
function httpsProvider(url: string): JsonRpcProvider {
  const request = new FetchRequest(url);
  request.getUrlFunc = FetchRequest.createGetUrlFunc({agent: new Agent({ca: certificate.cert})});
  return new JsonRpcProvider(request, undefined, {staticNetwork: true});
}

describe("TLS", () => {
  it("logs https and wss endpoints", () => {
    expect(node.httpUrl).toMatch(/^https:\/\//);
    expect(node.wsUrl).toMatch(/^wss:\/\//);
  });

  it("serves ethers over HTTPS, and GET /health", async () => {
    const provider = httpsProvider(node.httpUrl);
    expect(await provider.getBlockNumber()).toBeGreaterThanOrEqual(0);
    expect(await provider.getBalance(COW)).toBeGreaterThan(0n);
    const status = await new Promise<number>((resolve, reject) =>
      get(`${node.httpUrl}/health`, {ca: certificate.cert}, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on("error", reject),
    );
    expect(status).toBe(200);
  });

  it("answers plain HTTP on both TLS ports with a 400 saying the port speaks HTTPS", async () => {
    for (const url of [node.httpUrl, node.wsUrl]) {
      const plain = url.replace(/^(https|wss):/, "http:");
      const response = await fetch(plain, {
        method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_chainId", params: []}),
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/^This port speaks HTTPS .*use https:\/\/ or wss:\/\//);
    }
  });

  it("refuses a client that does not trust the certificate", async () => {
    const provider = new JsonRpcProvider(node.httpUrl, undefined, {staticNetwork: true});
    await expect(provider.getBlockNumber()).rejects.toThrow(/self[- ]signed|certificate/i);
    provider.destroy();
  });

  it("serves WSS: requests and a newHeads subscription", async () => {
    const provider = new WebSocketProvider(new WebSocket(node.wsUrl, {ca: certificate.cert}) as never);
    expect(await provider.getBlockNumber()).toBeGreaterThanOrEqual(0);
    await provider.destroy();
    const socket = new WebSocket(node.wsUrl, {ca: certificate.cert});
    const messages: {id?: number; params?: {result: {number: string}}}[] = [];
    socket.on("message", (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    socket.send(JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"]}));
    await expect.poll(() => messages.some((m) => m.id === 1)).toBe(true);
    socket.send(JSON.stringify({jsonrpc: "2.0", id: 2, method: "evm_mine", params: []}));
    await expect.poll(() => messages.some((m) => m.params?.result.number !== undefined)).toBe(true);
    socket.close();
  });

  it("refuses to start with one file alone or an invalid one, naming the setting", async () => {
    const cases: [string[], RegExp][] = [
      [["--rpc.tls.cert", certificate.certPath], /rpc\.tls\.cert is set without rpc\.tls\.key/],
      [["--rpc.tls.key", certificate.keyPath], /rpc\.tls\.key is set without rpc\.tls\.cert/],
      [["--rpc.tls.cert", certificate.keyPath, "--rpc.tls.key", certificate.keyPath], /rpc\.tls\.cert: .*not a PEM/],
    ];
    for (const [args, message] of cases) {
      const exit = await refusedStart(args);
      expect(exit.code, exit.stdout).not.toBe(0);
      const errorLines = exit.stderr.trim().split("\n");
      expect(errorLines, exit.stderr).toHaveLength(1);
      expect(errorLines[0]).toMatch(message);
    }
  }, 60_000);
});
