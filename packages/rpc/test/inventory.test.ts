/**
 * The registry, docs/rpc.md and the API specification agree: the docs list exactly the registered
 * methods with their status, and every method the specification names is registered.
 */
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {readJsonVector} from "@xchain/test-utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {FakeKeystore} from "./support/keystore.ts";
import {TestNode} from "./support/node.ts";
import {RecordingScoring} from "./support/scoring.ts";

const docs = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "rpc.md"), "utf8");
// The method names of the seed API specification that docs/rpc.md was written from.
const specMethods = readJsonVector<{methods: string[]}>("rpc-api-method-names.json").methods;

/** `| `eth_x` | implemented |` rows of docs/rpc.md. */
const documented = new Map(
  [...docs.matchAll(/^\| `([a-z0-9]+_[A-Za-z0-9]+)` \| (implemented|unsupported) \|/gm)].map((m) => [m[1], m[2]]),
);

let node: TestNode;
beforeAll(async () => {
  // A node as `xchain start` runs it: mining and on a peer-to-peer network.
  node = await TestNode.start({miner: {}, deps: {scoring: new RecordingScoring(), keystore: new FakeKeystore()}});
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

  it("registers every method the API specification names", () => {
    const named = new Set(specMethods);
    // The notification method of subscriptions is sent, not called.
    named.delete("eth_subscription");
    const registered = new Set(node.server.registry.names());
    expect([...named].filter((name) => !registered.has(name))).toEqual([]);
  });
});
