// admin_* at the RPC layer: off on mainnet unless configured (it makes the node dial what it is told),
// "not available" without a peer-to-peer network. What it does with one: test/e2e/network/bootnodes.test.ts.
import {getChainspec} from "@xchain/chainspec";
import {afterEach, describe, expect, it} from "vitest";
import {TestNode} from "../../support/node.ts";

const nodes: TestNode[] = [];
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.close()));
});

async function start(options: Parameters<typeof TestNode.start>[0] = {}): Promise<TestNode> {
  const node = await TestNode.start(options);
  nodes.push(node);
  return node;
}

describe("admin_*", () => {
  it("is -32601 'not available' on a node without a peer-to-peer network", async () => {
    for (const name of ["admin_addPeer", "admin_removePeer", "admin_nodeInfo", "admin_peers"]) {
      const error = await (await start()).error(name, name.endsWith("Peer") ? ["/ip4/127.0.0.1/tcp/1"] : []);
      expect(error.code).toBe(-32601);
      expect(error.message).toContain("this node runs no peer-to-peer network");
    }
  });

  it("is off on mainnet unless rpc.modules.admin says otherwise", async () => {
    const mainnet = await start({rpcChainspec: getChainspec("mainnet")});
    const error = await mainnet.error("admin_nodeInfo");
    expect(error.code).toBe(-32601);
    expect(error.message).not.toContain("peer-to-peer");
    const enabled = await start({rpcChainspec: getChainspec("mainnet"), rpc: {modules: {admin: {enabled: true}}}});
    expect((await enabled.error("admin_nodeInfo")).message).toContain("this node runs no peer-to-peer network");
  });
});
