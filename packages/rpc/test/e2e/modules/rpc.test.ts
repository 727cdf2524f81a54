/** `rpc.discover` (docs/rpc.md §4.9): the node's OpenRPC document, served as configured. */
import {getChainspec} from "@xchain/chainspec";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import type {OpenRpcDocument} from "../../../src/openrpc/document.ts";
import {FakeKeystore} from "../../support/keystore.ts";
import {TestNode} from "../../support/node.ts";
import {RecordingScoring} from "../../support/scoring.ts";

let node: TestNode;
beforeAll(async () => {
  // Every namespace served: miner, keystore and peer scoring present.
  node = await TestNode.start({miner: {}, deps: {scoring: new RecordingScoring(), keystore: new FakeKeystore()}});
});
afterAll(() => node.close());

describe("rpc.discover", () => {
  it("lists every registered method once, with its parameters' arity, namespace and status", async () => {
    const doc: OpenRpcDocument = await node.result("rpc.discover");
    const {registry} = node.server;
    expect(doc.info).toEqual(expect.objectContaining({title: "xchain", version: "0.1.0"}));
    expect(doc.methods.map((m) => m.name)).toEqual(registry.names());
    for (const entry of registry.entries()) {
      const described = doc.methods.find((m) => m.name === entry.name);
      expect(described?.params.map((p) => [p.name, p.required])).toEqual(
        (entry.method.params ?? []).map((p) => [p.name, p.required]),
      );
      expect([entry.name, described?.["x-namespace"], described?.["x-enabled"]]).toEqual([
        entry.name,
        entry.namespace,
        entry.status === "enabled",
      ]);
    }
  });

  it("describes parameters with their codecs' schemas", async () => {
    const doc: OpenRpcDocument = await node.result("rpc.discover");
    const getBalance = doc.methods.find((m) => m.name === "eth_getBalance");
    expect(getBalance?.params.map((p) => [p.name, p.required])).toEqual([
      ["address", true],
      ["block", false],
    ]);
    expect(getBalance?.params[0]?.schema).toMatchObject({title: "DATA20"});
    expect(doc.methods.find((m) => m.name === "shh_post")?.["x-unsupported"]).toContain("Whisper");
    const undescribed = doc.methods.flatMap((m) =>
      m.params.filter((p) => Object.keys(p.schema).length === 0).map((p) => `${m.name}(${p.name})`),
    );
    expect(undescribed).toEqual([]);
  });

  it("is generated once per server", async () => {
    const found = node.server.registry.lookup("rpc.discover");
    if (found.kind !== "enabled") throw new Error("rpc.discover is not enabled");
    const context = {} as Parameters<typeof found.method.invoke>[1];
    expect(found.method.invoke([], context)).toBe(found.method.invoke([], context));
    expect((await node.error("rpc.discover", [1])).code).toBe(-32602);
  });

  it("follows the network's settings: restricted and regtest-only methods off on mainnet, rpc on", async () => {
    const mainnet = await TestNode.start({rpcChainspec: getChainspec("mainnet")});
    try {
      const doc: OpenRpcDocument = await mainnet.result("rpc.discover");
      const enabled = (name: string) => doc.methods.find((m) => m.name === name)?.["x-enabled"];
      expect(["xchain_getStorageBytesAt", "evm_mine", "eth_getBalance", "rpc.discover"].map(enabled)).toEqual([
        false,
        false,
        true,
        true,
      ]);
    } finally {
      await mainnet.close();
    }
  });
});
