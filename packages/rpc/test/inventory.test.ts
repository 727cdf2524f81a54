/**
 * The registry, docs/rpc.md and rpc-api.md agree: the docs list exactly the registered methods with
 * their status, and every method rpc-api.md names is registered.
 */
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {vectorsDir} from "@xchain/test-utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {TestNode} from "./support/node.ts";
import {RecordingScoring} from "./support/scoring.ts";

const docs = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "rpc.md"), "utf8");
// The spec sits beside the vectors in shared/.
const spec = readFileSync(join(vectorsDir, "..", "spec", "rpc-api.md"), "utf8");

/** `| `eth_x` | implemented |` rows of docs/rpc.md. */
const documented = new Map(
  [...docs.matchAll(/^\| `([a-z0-9]+_[A-Za-z0-9]+)` \| (implemented|unsupported) \|/gm)].map((m) => [m[1], m[2]]),
);

let node: TestNode;
beforeAll(async () => {
  // A node as `xchain start` runs it: mining and on a peer-to-peer network.
  node = await TestNode.start({miner: {}, deps: {scoring: new RecordingScoring()}});
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

  it("registers every method rpc-api.md names", () => {
    const named = new Set(
      [...spec.matchAll(/\b(?:web3|net|eth|xchain|trace|debug|evm|mnr|personal|txpool|sco|db|shh)_[A-Za-z0-9]+/g)].map(
        (m) => m[0],
      ),
    );
    // The notification method of subscriptions (rpc-api §6) is sent, not called.
    named.delete("eth_subscription");
    const registered = new Set(node.server.registry.names());
    expect([...named].filter((name) => !registered.has(name))).toEqual([]);
  });
});
