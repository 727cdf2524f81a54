/** The block object against real rskj output: testnet blocks 64,746 and 3 (shared vectors). */
import {getChainspec} from "@xchain/chainspec";
import {Block, BlockHeader} from "@xchain/primitives";
import {readJsonVector} from "@xchain/test-utils";
import {hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {formatBlock} from "../../src/format/block.ts";

interface RpcBlockVector {
  blocks: {number: number; rpcJson: Record<string, unknown>; headerRlpFull: string}[];
}

const testnet = getChainspec("testnet");
const vectors = readJsonVector<RpcBlockVector>("testnet-blocks-from-rpc-json.json").blocks;

// Fields that depend only on the header; transactions, uncles, size and the difficulties need the body.
const HEADER_FIELDS = [
  "number",
  "hash",
  "parentHash",
  "sha3Uncles",
  "logsBloom",
  "transactionsRoot",
  "stateRoot",
  "receiptsRoot",
  "miner",
  "difficulty",
  "extraData",
  "gasLimit",
  "gasUsed",
  "timestamp",
  "minimumGasPrice",
  "bitcoinMergedMiningHeader",
  "bitcoinMergedMiningCoinbaseTransaction",
  "bitcoinMergedMiningMerkleProof",
  "hashForMergedMining",
  "paidFees",
];

describe("formatBlock", () => {
  for (const vector of vectors) {
    it(`reproduces rskj's header fields of testnet block ${vector.number}`, () => {
      const header = BlockHeader.decode(hexToBytes(vector.headerRlpFull), testnet);
      const json = formatBlock(new Block(header, [], []), undefined, false, testnet) as unknown as Record<
        string,
        unknown
      >;
      for (const field of HEADER_FIELDS) expect([field, json[field]]).toEqual([field, vector.rpcJson[field]]);
    });
  }
});
