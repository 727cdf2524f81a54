import {toData, toQuantity} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {buildFixture, type Fixture} from "../../../support/fixture.ts";
import {TestNode} from "../../../support/node.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  node = await TestNode.start();
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

// docs/rpc.md §2.3 and docs/protocol/json-rpc.md §5, in rskj's order.
const BLOCK_FIELDS = [
  "number",
  "hash",
  "parentHash",
  "mixHash",
  "nonce",
  "sha3Uncles",
  "logsBloom",
  "transactionsRoot",
  "stateRoot",
  "receiptsRoot",
  "miner",
  "difficulty",
  "totalDifficulty",
  "extraData",
  "size",
  "gasLimit",
  "gasUsed",
  "timestamp",
  "transactions",
  "uncles",
  "minimumGasPrice",
  "bitcoinMergedMiningHeader",
  "bitcoinMergedMiningCoinbaseTransaction",
  "bitcoinMergedMiningMerkleProof",
  "hashForMergedMining",
  "paidFees",
  "cumulativeDifficulty",
];

describe("eth_getBlockByNumber", () => {
  it("returns every block field of docs/rpc.md §2.3 with the block's values", async () => {
    const block = fixture.blocks[1];
    const {header} = block;
    const json = await node.result("eth_getBlockByNumber", ["0x2", false]);
    expect(Object.keys(json)).toEqual(BLOCK_FIELDS);
    const mm = header.mergedMining!;
    expect(json).toMatchObject({
      number: "0x2",
      hash: toData(block.hash()),
      parentHash: toData(fixture.blocks[0].hash()),
      mixHash: toData(new Uint8Array(32)),
      nonce: "0x0000000000000000",
      sha3Uncles: toData(header.unclesHash),
      logsBloom: toData(header.logsBloom),
      transactionsRoot: toData(header.txTrieRoot),
      stateRoot: toData(header.stateRoot),
      receiptsRoot: toData(header.receiptTrieRoot),
      miner: toData(header.coinbase),
      difficulty: toQuantity(header.difficulty),
      totalDifficulty: toQuantity((await node.chain.getTotalDifficulty(block.hash()))!),
      extraData: "0x",
      size: toQuantity(block.encode().length),
      gasLimit: toQuantity(header.gasLimit),
      gasUsed: toQuantity(header.gasUsed),
      timestamp: toQuantity(header.timestamp),
      transactions: block.transactions.map((tx) => toData(tx.hash())),
      uncles: [],
      minimumGasPrice: "0x0",
      bitcoinMergedMiningHeader: toData(mm.bitcoinHeader),
      bitcoinMergedMiningCoinbaseTransaction: toData(mm.coinbase),
      bitcoinMergedMiningMerkleProof: toData(mm.merkleProof),
      hashForMergedMining: toData(header.baseHashForMergedMining()),
      paidFees: toQuantity(header.paidFees),
      cumulativeDifficulty: toQuantity(header.difficulty),
    });
    // The store transaction paid gasPrice 1, so the block paid fees.
    expect(header.paidFees).toBeGreaterThan(0n);
    // Three transactions and the REMASC transaction last.
    expect(json.transactions).toHaveLength(4);
  });

  it("returns full transaction objects with the flag, the REMASC one included", async () => {
    const json = await node.result("eth_getBlockByNumber", ["0x2", true]);
    const [store, , , remasc] = json.transactions;
    expect(store).toMatchObject({hash: toData(fixture.store.hash()), blockNumber: "0x2", transactionIndex: "0x0"});
    expect(remasc).toMatchObject({
      from: toData(new Uint8Array(20)),
      to: "0x0000000000000000000000000000000001000008",
      gas: "0x0",
      gasPrice: "0x0",
      v: "0x0",
      r: "0x0",
      s: "0x0",
      type: "0x0",
    });
  });

  it("answers the tags, and null above the head", async () => {
    expect((await node.result("eth_getBlockByNumber", ["latest"])).number).toBe("0x3");
    expect((await node.result("eth_getBlockByNumber", ["pending"])).number).toBe("0x3");
    const genesis = await node.result("eth_getBlockByNumber", ["earliest", false]);
    expect(genesis).toMatchObject({number: "0x0", totalDifficulty: "0x1", transactions: []});
    expect(await node.result("eth_getBlockByNumber", ["0x10", false])).toBeNull();
  });

  it("refuses a hash, which only eth_getBlockByHash takes", async () => {
    const error = await node.error("eth_getBlockByNumber", [toData(fixture.blocks[0].hash()), false]);
    expect(error.code).toBe(-32602);
    // A 32-byte hash is too large a number, or one with leading zero digits when it starts with 0.
    expect(error.message).toMatch(
      /^invalid argument 0 \(block\): hex number (larger than 53 bits|with leading zero digits)/,
    );
    expect((await node.error("eth_getBlockByNumber", ["0x1", "yes"])).message).toBe(
      "invalid argument 1 (fullTransactions): expected a boolean, got string",
    );
  });
});
