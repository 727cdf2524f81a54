/**
 * The registry, docs/rpc.md, `rpc.discover` and the API specification agree: the docs list exactly
 * the registered methods with their status, as the OpenRPC document does, and every method the
 * specification names is registered.
 */
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {readJsonVector} from "@xchain/test-utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import type {PeerAdmin} from "../../src/deps.ts";
import type {OpenRpcDocument} from "../../src/openrpc/document.ts";
import {FakeKeystore} from "../support/keystore.ts";
import {TestNode} from "../support/node.ts";
import {RecordingScoring} from "../support/scoring.ts";

const docs = readFileSync(join(import.meta.dirname, "..", "..", "..", "..", "docs", "rpc.md"), "utf8");
// The method names of the seed API specification that docs/rpc.md was written from.
const specMethods = readJsonVector<{methods: string[]}>("rpc-api-method-names.json").methods;

/** `| `eth_x` | implemented |` (and `rpc.discover`) rows of docs/rpc.md. */
const documented = new Map(
  [...docs.matchAll(/^\| `([a-z0-9]+[_.][A-Za-z0-9_]+)` \| (implemented|unsupported) \|/gm)].map((m) => [m[1], m[2]]),
);

/** A p2p host's admin view with no peer: this test only reads which methods are registered. */
const NO_PEERS: PeerAdmin = {
  addPeer: () => {},
  removePeer: async () => {},
  nodeInfo: () => {
    throw new Error("not read by this test");
  },
  peers: async () => [],
};

let node: TestNode;
beforeAll(async () => {
  // A node as `xchain start` runs it: mining and on a peer-to-peer network.
  node = await TestNode.start({
    miner: {},
    deps: {scoring: new RecordingScoring(), keystore: new FakeKeystore(), peerAdmin: NO_PEERS},
  });
});
afterAll(() => node.close());

describe("method inventory", () => {
  it("docs/rpc.md lists exactly the registered methods, each with its status", () => {
    const {registry} = node.server;
    expect([...documented.keys()].sort()).toEqual(registry.names());
    for (const name of registry.names()) {
      expect([name, registry.status(name)]).toEqual([
        name,
        documented.get(name) === "implemented" ? "enabled" : "unsupported",
      ]);
    }
  });

  it("rpc.discover lists exactly the methods of docs/rpc.md, the unsupported ones marked so", async () => {
    const doc: OpenRpcDocument = await node.result("rpc.discover");
    expect(doc.methods.map((m) => m.name)).toEqual([...documented.keys()].sort());
    for (const m of doc.methods) {
      const status = documented.get(m.name) === "implemented" ? "enabled" : "unsupported";
      expect([m.name, m["x-unsupported"] === undefined ? "enabled" : "unsupported", m["x-enabled"]]).toEqual([
        m.name,
        status,
        status === "enabled",
      ]);
    }
  });

  it("registers every method the API specification names, and rpc.discover lists them", async () => {
    const named = new Set(specMethods);
    // The notification method of subscriptions is sent, not called.
    named.delete("eth_subscription");
    const registered = new Set(node.server.registry.names());
    expect([...named].filter((name) => !registered.has(name))).toEqual([]);
    const discovered = new Set((await node.result("rpc.discover")).methods.map((m: {name: string}) => m.name));
    expect([...named].filter((name) => !discovered.has(name))).toEqual([]);
  });
});
