// End-to-end: db_* on a running node (docs/rpc.md §4.7). A value written with db_putString is read
// back after the node is stopped and started again on the same data directory, and the total bound
// (rpc.db.maxTotalBytes) counts what the first run stored: the next write that would pass it is
// refused naming the key. With the gateway on, a key calls db_* only when its namespaces name db.
import {afterAll, describe, expect, it} from "vitest";
import {addGatewayKey} from "../support/gatewayKeys.ts";
import {JsonRpcFault, rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode, tempDataDir} from "../support/xchainProcess.ts";

// A bound the test reaches in a few writes: 40 bytes of names, keys and values in all.
const BOUND = ["--rpc.db.maxTotalBytes", "40", "--p2p.enabled", "false"];

/** The error `method(params)` answers at `url`. */
async function fault(url: string, method: string, params: unknown[]): Promise<JsonRpcFault> {
  const error = await rpc(url, method, params).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JsonRpcFault);
  return error as JsonRpcFault;
}

const running: RunningNode[] = [];
afterAll(async () => {
  for (const node of running) if (node.process.exitCode === null) await node.stop();
});

describe("db_* on a node process", () => {
  it("keeps a value across a restart, and the total bound counts it; gateway keys need the db namespace", async () => {
    const dataDir = tempDataDir();
    const first = await startNode(BOUND, dataDir);
    running.push(first);
    // "app" + "greeting" + 13 bytes = 24 of the 40.
    expect(await rpc(first.httpUrl, "db_putString", ["app", "greeting", "héllo, world"])).toBe(true);
    expect(await rpc(first.httpUrl, "db_getString", ["app", "greeting"])).toBe("héllo, world");
    expect(await rpc(first.httpUrl, "db_getString", ["app", "nothing"])).toBeNull();
    expect((await first.stop("SIGTERM")).code).toBe(0);

    const granted = await addGatewayKey(dataDir, ["--namespaces", "eth,db"]);
    const plain = await addGatewayKey(dataDir, []);
    const second = await startNode([...BOUND, "--rpc.gateway.enabled"], dataDir);
    running.push(second);
    const url = `${second.httpUrl}/${granted.secret}`;
    expect(await rpc(url, "db_getString", ["app", "greeting"])).toBe("héllo, world");
    expect(await rpc(url, "db_getHex", ["app", "greeting"])).toBe(
      `0x${Buffer.from("héllo, world", "utf8").toString("hex")}`,
    );
    // "app" + "more" + 10 bytes = 17: alone it would fit, after the first run's 24 it passes 40.
    const full = await fault(url, "db_putHex", ["app", "more", `0x${"ab".repeat(10)}`]);
    expect({code: full.code, message: full.message}).toEqual({
      code: -32005,
      message:
        "limit exceeded: the db_* store holds 24 bytes, and this write would make it 41, more than rpc.db.maxTotalBytes (40)",
    });
    expect(await rpc(url, "db_getHex", ["app", "more"])).toBeNull();
    // One byte less fits exactly.
    expect(await rpc(url, "db_putHex", ["app", "more", `0x${"ab".repeat(9)}`])).toBe(true);

    // A key with the default namespaces (eth, net, web3, xchain) is not granted db.
    const refused = await fault(`${second.httpUrl}/${plain.secret}`, "db_getString", ["app", "greeting"]);
    expect({code: refused.code, message: refused.message}).toEqual({
      code: -32601,
      message: `the method db_getString does not exist/is not available: API key ${plain.id} is not granted the db namespace`,
    });
    expect((await second.stop("SIGTERM")).code).toBe(0);
  });
});
