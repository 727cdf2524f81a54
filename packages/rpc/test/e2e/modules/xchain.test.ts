import {verifyMerkleProof} from "@ethereumjs/mpt";
import {getChainspec} from "@xchain/chainspec";
import {encodeRlp, encodeUnsigned} from "@xchain/primitives";
import {hexToBytes, keccak256, toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {buildFixture, type Fixture} from "../../support/fixture.ts";
import {TestNode} from "../../support/node.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  node = await TestNode.start();
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

describe("xchain_protocolVersion", () => {
  it("is 0x3e (docs/protocol/json-rpc.md §2)", async () => {
    expect(await node.result("xchain_protocolVersion")).toBe("0x3e");
  });
});

describe("xchain_getRawBlockHeaderByHash", () => {
  it("is the encoding for hashing: keccak-256 of it is the block hash (docs/protocol/header.md §3.2); null when unknown", async () => {
    const block = fixture.blocks[1];
    const raw: string = await node.result("xchain_getRawBlockHeaderByHash", [toData(block.hash())]);
    expect(raw).toBe(toData(block.header.encodeForHash()));
    expect(raw).not.toBe(toData(block.header.encode()));
    expect(toData(keccak256(hexToBytes(raw)))).toBe(toData(block.hash()));
    expect(await node.result("xchain_getRawBlockHeaderByHash", [`0x${"12".repeat(32)}`])).toBeNull();
  });
});

describe("xchain_getRawBlockHeaderByNumber", () => {
  it("takes a number or tag; null above the head", async () => {
    expect(await node.result("xchain_getRawBlockHeaderByNumber", ["0x1"])).toBe(
      toData(fixture.blocks[0].header.encodeForHash()),
    );
    expect(await node.result("xchain_getRawBlockHeaderByNumber", ["latest"])).toBe(
      toData(fixture.blocks[2].header.encodeForHash()),
    );
    expect(await node.result("xchain_getRawBlockHeaderByNumber", ["0x40"])).toBeNull();
  });
});

describe("xchain_getRawTransactionReceiptByHash", () => {
  it("is the 6-field receipt encoding; null when unknown", async () => {
    const receipts = (await node.chain.getReceipts(fixture.blocks[1].hash()))!;
    expect(await node.result("xchain_getRawTransactionReceiptByHash", [toData(fixture.ping.hash())])).toBe(
      toData(receipts[1]!.encode()),
    );
    expect(await node.result("xchain_getRawTransactionReceiptByHash", [`0x${"12".repeat(32)}`])).toBeNull();
  });
});

describe("xchain_getTransactionReceiptNodesByHash", () => {
  it("is the receipts-trie path, root first, that proves each receipt against receiptsRoot", async () => {
    const block = fixture.blocks[1];
    const receipts = (await node.chain.getReceipts(block.hash()))!;
    for (const [index, tx] of block.transactions.entries()) {
      const nodes: string[] = await node.result("xchain_getTransactionReceiptNodesByHash", [
        toData(block.hash()),
        toData(tx.hash()),
      ]);
      expect(toData(keccak256(hexToBytes(nodes[0]!)))).toBe(toData(block.header.receiptTrieRoot));
      const proof = nodes.map((n) => hexToBytes(n));
      const key = encodeRlp(encodeUnsigned(BigInt(index)));
      expect(await verifyMerkleProof(key, proof, {root: block.header.receiptTrieRoot})).toEqual(
        receipts[index]!.encode(),
      );
    }
  });

  it("is null when the block does not hold the transaction or is unknown", async () => {
    const [b1, b2] = fixture.blocks;
    const tx = toData(fixture.store.hash());
    expect(await node.result("xchain_getTransactionReceiptNodesByHash", [toData(b1.hash()), tx])).toBeNull();
    expect(await node.result("xchain_getTransactionReceiptNodesByHash", [`0x${"12".repeat(32)}`, tx])).toBeNull();
    expect(
      await node.result("xchain_getTransactionReceiptNodesByHash", [toData(b2.hash()), `0x${"34".repeat(32)}`]),
    ).toBeNull();
  });

  it("answers bad hashes -32602", async () => {
    expect((await node.error("xchain_getTransactionReceiptNodesByHash", ["0x12", `0x${"34".repeat(32)}`])).code).toBe(
      -32602,
    );
    expect((await node.error("xchain_getTransactionReceiptNodesByHash", [`0x${"34".repeat(32)}`])).code).toBe(-32602);
  });
});

describe("xchain_getStorageBytesAt", () => {
  it("is the stored bytes without leading zeros, 0x0 when absent (docs/rpc.md §4.6)", async () => {
    const contract = toData(fixture.contract);
    expect(await node.result("xchain_getStorageBytesAt", [contract, "0x0", "latest"])).toBe("0x2a");
    expect(await node.result("xchain_getStorageBytesAt", [contract, `0x${"00".repeat(32)}`, "0x2"])).toBe("0x2a");
    expect(await node.result("xchain_getStorageBytesAt", [contract, "0x0", "0x1"])).toBe("0x0");
    expect(await node.result("xchain_getStorageBytesAt", [contract, "0x1", "latest"])).toBe("0x0");
    expect((await node.error("xchain_getStorageBytesAt", [contract, `0x${"1".repeat(65)}`, "latest"])).code).toBe(
      -32602,
    );
  });

  it("is off by default on mainnet and testnet, on with rpc.methods.enabled", async () => {
    for (const network of ["mainnet", "testnet"] as const) {
      const off = await TestNode.start({rpcChainspec: getChainspec(network)});
      try {
        expect((await off.error("xchain_getStorageBytesAt", [toData(fixture.contract), "0x0", "latest"])).code).toBe(
          -32601,
        );
        expect(off.server.registry.status("xchain_getStorageBytesAt")).toBe("disabled");
      } finally {
        await off.close();
      }
    }
    const on = await TestNode.start({
      rpcChainspec: getChainspec("mainnet"),
      rpc: {methods: {enabled: ["xchain_getStorageBytesAt"], disabled: []}},
    });
    try {
      expect(await on.result("xchain_getStorageBytesAt", [toData(fixture.contract), "0x0", "latest"])).toBe("0x0");
    } finally {
      await on.close();
    }
  });
});
