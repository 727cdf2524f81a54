import {ImportResultKind} from "@xchain/chain";
import {buildFakeBitcoinBlock, grindNonce, serializeBitcoinBlock} from "@xchain/merged-mining";
import {
  bytesToHex,
  concatBytes,
  hexToBytes,
  reverseBytes,
  sha256d,
  toData,
  toQuantity,
  utf8ToBytes,
} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {TestNode} from "../../support/node.ts";

let node: TestNode;
beforeAll(async () => {
  node = await TestNode.start({miner: {}});
});
afterAll(() => node.close());

interface Work {
  blockHashForMergedMining: string;
  target: string;
}

/** A one-transaction Bitcoin block solving the work: header, coinbase and the whole block. */
function solve(work: Work, merkleRoot?: Uint8Array): {header: Uint8Array; coinbase: Uint8Array; block: Uint8Array} {
  const fake = buildFakeBitcoinBlock({hashForMergedMining: hexToBytes(work.blockHashForMergedMining), time: 1});
  const header = grindNonce({...fake.header, merkleRoot: merkleRoot ?? fake.header.merkleRoot}, BigInt(work.target))!;
  return {header, coinbase: fake.coinbase, block: serializeBitcoinBlock(header, [fake.coinbase])};
}

const IMPORTED_BEST = toData(utf8ToBytes(ImportResultKind.IMPORTED_BEST));

describe("mnr_getWork", () => {
  it("has docs/protocol/mining-rpc.md §2's shape: feesPaidToMiner in decimal, the regtest target; then height", async () => {
    const work = await node.result("mnr_getWork");
    // rskj's five fields in rskj's order, then xchain's extra height (docs/mining.md): a client reading rskj's shape still reads it.
    expect(Object.keys(work)).toEqual([
      "blockHashForMergedMining",
      "target",
      "feesPaidToMiner",
      "notify",
      "parentBlockHash",
      "height",
    ]);
    expect(work).toMatchObject({
      target: `0x${"55".repeat(32)}`,
      feesPaidToMiner: "0",
      parentBlockHash: toData(node.chain.head().hash),
      height: toQuantity(node.chain.head().number + 1),
    });
    expect(work.blockHashForMergedMining).toMatch(/^0x[0-9a-f]{64}$/);
    expect(typeof work.notify).toBe("boolean");
  });
});

describe("mnr_submitBitcoinBlock", () => {
  it("imports the block; blockImportedResult is the hex of the ASCII name (docs/protocol/mining-rpc.md §3)", async () => {
    expect(IMPORTED_BEST).toBe("0x494d504f525445445f42455354");
    const {block} = solve(await node.result("mnr_getWork"));
    const result = await node.result("mnr_submitBitcoinBlock", [bytesToHex(block)]);
    expect(result).toEqual({
      blockImportedResult: IMPORTED_BEST,
      blockHash: toData(node.chain.head().hash),
      blockIncludedHeight: toQuantity(node.chain.head().number),
    });
  });

  it("accepts 0x-prefixed hex too (docs/protocol/README.md §2)", async () => {
    const {block} = solve(await node.result("mnr_getWork"));
    expect((await node.result("mnr_submitBitcoinBlock", [toData(block)])).blockImportedResult).toBe(IMPORTED_BEST);
  });

  it("answers -33000 for unknown work (docs/protocol/mining-rpc.md §3)", async () => {
    const {block} = solve({blockHashForMergedMining: `0x${"07".repeat(32)}`, target: `0x${"55".repeat(32)}`});
    const error = await node.error("mnr_submitBitcoinBlock", [bytesToHex(block)]);
    expect(error.code).toBe(-33000);
    expect(error.message).toMatch(/^Cannot publish block/);
    expect((await node.error("mnr_submitBitcoinBlock", ["0xzz"])).code).toBe(-32602);
  });
});

describe("mnr_submitBitcoinBlockTransactions", () => {
  it("takes the header, the coinbase and the txids in display order, whitespace-separated", async () => {
    const {header, coinbase} = solve(await node.result("mnr_getWork"));
    const txid = bytesToHex(reverseBytes(sha256d(coinbase)));
    const result = await node.result("mnr_submitBitcoinBlockTransactions", [
      "ignored",
      bytesToHex(header),
      bytesToHex(coinbase),
      ` ${txid} `,
    ]);
    expect(result.blockImportedResult).toBe(IMPORTED_BEST);
  });
});

describe("mnr_submitBitcoinBlockPartialMerkle", () => {
  it("takes the coinbase's merkle branch in internal order and the transaction count", async () => {
    const work = await node.result("mnr_getWork");
    const fake = buildFakeBitcoinBlock({hashForMergedMining: hexToBytes(work.blockHashForMergedMining), time: 1});
    const other = sha256d(utf8ToBytes("another transaction"));
    const {header, coinbase} = solve(work, sha256d(concatBytes(sha256d(fake.coinbase), other)));
    const result = await node.result("mnr_submitBitcoinBlockPartialMerkle", [
      "",
      toData(header),
      bytesToHex(coinbase),
      bytesToHex(other),
      "2",
    ]);
    expect(result.blockImportedResult).toBe(IMPORTED_BEST);
  });

  it("refuses an empty branch (docs/protocol/mining-rpc.md §3)", async () => {
    const {header, coinbase} = solve(await node.result("mnr_getWork"));
    expect(
      await node.error("mnr_submitBitcoinBlockPartialMerkle", ["", bytesToHex(header), bytesToHex(coinbase), " ", "1"]),
    ).toEqual({
      code: -32602,
      message: "invalid argument 3 (merkleHashesHex): expected at least one hash",
    });
  });
});
