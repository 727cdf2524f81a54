import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {FREE_PORT_SETTINGS} from "@xchain/test-utils";
import {afterEach, describe, expect, it} from "vitest";
import {resolveNodeOptions} from "../../src/config/load.ts";
import {NodeStartError, NodeStartErrorCode} from "../../src/errors.ts";
import {createLogger} from "../../src/logger.ts";
import {Node} from "../../src/node.ts";

const logger = createLogger("silent");
const open: Node[] = [];

async function options(dataDir: string, extra: [string, string][] = []) {
  const flags = new Map<string, string>([["dataDir", dataDir], ...FREE_PORT_SETTINGS, ...extra]);
  return resolveNodeOptions({flags});
}

/** The result of one JSON-RPC request to `node` over HTTP. */
async function rpcResult(node: Node, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(node.endpoints.http!, {
    method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({jsonrpc: "2.0", id: 1, method, params}),
  });
  return ((await response.json()) as {result: unknown}).result;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((n) => n.close()));
});

describe("Node", () => {
  it("starts every component, reports its endpoints and closes in reverse order", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "xchain-node-"));
    const node = await Node.init(await options(dataDir, [["miner.blockTimeMs", "0"]]), {logger});
    open.push(node);
    expect(node.endpoints.http).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(node.endpoints.ws).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect(await rpcResult(node, "eth_accounts", [])).toHaveLength(10);
    await node.close();
    await node.close();
    await expect(fetch(node.endpoints.http!)).rejects.toThrow();
  });

  it("serves eth_call from a call worker with rpc.callWorkers = 1", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "xchain-node-"));
    const node = await Node.init(await options(dataDir, [["rpc.callWorkers", "1"]]), {logger});
    open.push(node);
    const call = [{to: "0x0000000000000000000000000000000000000004", data: "0x2a"}, "latest"];
    expect(await rpcResult(node, "eth_call", call)).toBe("0x2a");
    // The database is shared with the worker, yet a second node on it is still refused.
    await expect(Node.init(await options(dataDir), {logger})).rejects.toBeInstanceOf(NodeStartError);
  });

  it("refuses a second node on the same data directory and leaves the first running", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "xchain-node-"));
    open.push(await Node.init(await options(dataDir), {logger}));
    const second = await Node.init(await options(dataDir), {logger}).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(NodeStartError);
    expect((second as NodeStartError).type).toEqual({code: NodeStartErrorCode.DATADIR_IN_USE, dataDir});
    expect((second as Error).message).toMatch(/in use by another xchain node/);
  });

  it("stops start-up when aborted, releasing the data directory", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "xchain-node-"));
    const controller = new AbortController();
    controller.abort();
    const aborted = await Node.init(await options(dataDir), {logger, signal: controller.signal}).catch(
      (e: unknown) => e,
    );
    expect((aborted as NodeStartError).code).toBe(NodeStartErrorCode.ABORTED);
    open.push(await Node.init(await options(dataDir), {logger}));
  });

  it("runs without the dev wallet when it is off", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "xchain-node-"));
    const node = await Node.init(await options(dataDir, [["wallet.enabled", "false"]]), {logger});
    open.push(node);
    expect(await rpcResult(node, "eth_accounts", [])).toEqual([]);
  });
});
