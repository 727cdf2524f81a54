import {getChainspec} from "@xchain/chainspec";
import {describe, expect, it} from "vitest";
import {TestNode} from "../../support/node.ts";

describe("module defaults over the wire", () => {
  it("a disabled method answers -32601 saying so; options override the network default", async () => {
    const node = await TestNode.start({
      rpcChainspec: getChainspec("mainnet"),
      miner: {},
      rpc: {modules: {txpool: {enabled: false}}, methods: {enabled: ["evm_snapshot"], disabled: ["eth_chainId"]}},
    });
    try {
      expect(await node.error("evm_mine")).toEqual({
        code: -32601,
        message: "the method evm_mine does not exist/is not available: it is disabled on this node",
      });
      expect((await node.error("personal_listAccounts")).code).toBe(-32601);
      expect((await node.error("txpool_status")).code).toBe(-32601);
      expect((await node.error("eth_chainId")).code).toBe(-32601);
      expect(await node.result("evm_snapshot")).toMatch(/^0x/);
      expect((await node.result("mnr_getWork")).target).toMatch(/^0x/);
      expect(node.server.registry.status("evm_mine")).toBe("disabled");
    } finally {
      await node.close();
    }
  });
});
