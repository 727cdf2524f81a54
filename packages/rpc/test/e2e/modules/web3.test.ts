import {describe, expect, it} from "vitest";
import {formatClientVersion} from "../../../src/index.ts";
import {TestNode} from "../../support/node.ts";

describe("web3_clientVersion", () => {
  it("answers the version the node was given: xchain/<version>/<platform>/node<major>", async () => {
    const node = await TestNode.start({deps: {clientVersion: formatClientVersion("1.2.3")}});
    try {
      expect(await node.result("web3_clientVersion")).toBe(
        `xchain/1.2.3/${process.platform}/node${process.versions.node.split(".")[0]}`,
      );
    } finally {
      await node.close();
    }
  });
});

describe("rpc.clientVersion", () => {
  it("is what web3_clientVersion answers (Hardhat's helpers check its start); rpc.discover keeps the node's version", async () => {
    const node = await TestNode.start({
      deps: {clientVersion: formatClientVersion("1.2.3")},
      rpc: {clientVersion: "HardhatNetwork/xchain"},
    });
    try {
      const version = await node.result("web3_clientVersion");
      expect(version).toBe("HardhatNetwork/xchain");
      // @nomicfoundation/hardhat-network-helpers 1.x accepts a node whose version starts so.
      expect(String(version).toLowerCase().startsWith("hardhatnetwork")).toBe(true);
      const discovered = (await node.result("rpc.discover")) as {info: {version: string}};
      expect(discovered.info.version).toBe("1.2.3");
    } finally {
      await node.close();
    }
  });
});

describe("web3_sha3", () => {
  it("is Keccak-256 of the data (docs/rpc.md §4.2)", async () => {
    const node = await TestNode.start();
    try {
      expect(await node.result("web3_sha3", ["0x"])).toBe(
        "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
      );
      expect(await node.result("web3_sha3", ["0x68656c6c6f20776f726c64"])).toBe(
        "0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad",
      );
      expect((await node.error("web3_sha3", ["0x1"])).message).toBe(
        "invalid argument 0 (data): hex string of odd length 1",
      );
    } finally {
      await node.close();
    }
  });
});
