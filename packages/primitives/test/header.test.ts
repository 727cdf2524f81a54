import {readJsonVector, readMainnetHeaderLines} from "@xchain/test-utils";
import {bytesToHex, equalBytes, hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  BlockHeader,
  decodeRlpList,
  HeaderDecodeError,
  HeaderDecodeErrorCode,
  type HeaderEncodingRules,
} from "../src/index.ts";

const mainnetRules: HeaderEncodingRules = {isRskip92Active: (n) => n >= 729_000};
const fromGenesisRules: HeaderEncodingRules = {isRskip92Active: () => true};

interface SampleBlock {
  number: number;
  headerRlp: string;
  blockHash: string;
  baseHashForMergedMining_keccakOfHeaderWithoutMMFields: string;
  difficulty: string;
  bitcoinHeader: string;
  merkleProof: string;
  coinbaseCompressed: string;
}

describe("BlockHeader on 1,060 real mainnet headers", () => {
  const lines = readMainnetHeaderLines();
  const headers = lines.map((l) => BlockHeader.decode(hexToBytes(l), mainnetRules));

  it("has the expected count and heights", () => {
    expect(headers).toHaveLength(1060);
    expect(headers[0]?.number).toBe(4479841);
    expect(headers.at(-1)?.number).toBe(4480900);
  });

  it("re-encodes every header byte-exactly", () => {
    for (const [i, h] of headers.entries()) expect(bytesToHex(h.encode()), `line ${i}`).toBe(lines[i]);
  });

  it("hashes each header to the next one's parentHash", () => {
    for (let i = 1; i < headers.length; i++) {
      expect(equalBytes(headers[i - 1]!.hash(), headers[i]!.parentHash), `link ${i}`).toBe(true);
    }
  });

  it("decodes the 20-field layout with an empty ummRoot and merged-mining fields", () => {
    const h = headers[0]!;
    expect(h.ummRoot).toEqual(new Uint8Array(0));
    expect(h.mergedMining?.bitcoinHeader).toHaveLength(80);
    expect(h.mergedMiningProofInHash).toBe(false);
  });
});

describe("BlockHeader on the six mainnet samples", () => {
  const {blocks} = readJsonVector<{blocks: SampleBlock[]}>("mainnet-headers-samples.json");
  for (const b of blocks) {
    it(`block ${b.number}`, () => {
      const h = BlockHeader.decode(hexToBytes(b.headerRlp), mainnetRules);
      expect(h.number).toBe(b.number);
      expect(h.difficulty).toBe(BigInt(b.difficulty));
      expect(h.ummRoot).toBeUndefined();
      expect(bytesToHex(h.encode())).toBe(b.headerRlp);
      expect(bytesToHex(h.hash())).toBe(b.blockHash);
      expect(bytesToHex(h.baseHashForMergedMining())).toBe(b.baseHashForMergedMining_keccakOfHeaderWithoutMMFields);
      expect(bytesToHex(h.mergedMining!.bitcoinHeader)).toBe(b.bitcoinHeader);
      expect(bytesToHex(h.mergedMining!.merkleProof)).toBe(b.merkleProof);
      expect(bytesToHex(h.mergedMining!.coinbase)).toBe(b.coinbaseCompressed);
    });
  }
});

describe("BlockHeader on the testnet RPC blocks", () => {
  const {blocks} = readJsonVector<{
    blocks: {number: number; headerRlpFull: string; computedHash: string; rpcJson: {hash: string}}[];
  }>("testnet-blocks-from-rpc-json.json");
  for (const b of blocks) {
    it(`block ${b.number} hashes to its RPC hash`, () => {
      const h = BlockHeader.decode(hexToBytes(b.headerRlpFull), fromGenesisRules);
      expect(bytesToHex(h.encode())).toBe(b.headerRlpFull);
      expect(`0x${bytesToHex(h.hash())}`).toBe(b.rpcJson.hash);
    });
  }
});

describe("BlockHeader on the genesis encodings", () => {
  const genesis = readJsonVector<Record<string, {hash: string; headerRlpForHash: string}>>("genesis-blocks.json");
  for (const network of ["mainnet", "testnet", "regtest"]) {
    it(`${network} genesis hash`, () => {
      const v = genesis[network]!;
      // The vector is the encoding for hash. On testnet and regtest RSKIP-92 is active at 0, so it
      // lacks the merkle proof and coinbase: restore them (each 0x00 in a genesis block, docs/protocol/networks.md §2).
      const items = decodeRlpList(hexToBytes(v.headerRlpForHash), "genesis");
      const full = items.length === 17 ? [...items, Uint8Array.of(0), Uint8Array.of(0)] : items;
      const rules = network === "mainnet" ? mainnetRules : fromGenesisRules;
      const h = BlockHeader.fromRlpItems(full, rules);
      expect(h.ummRoot).toBeUndefined();
      expect(bytesToHex(h.encodeForHash())).toBe(v.headerRlpForHash);
      expect(bytesToHex(h.hash())).toBe(v.hash);
    });
  }
});

describe("BlockHeader.decode errors", () => {
  it("rejects a wrong field count", () => {
    const h = BlockHeader.decode(hexToBytes(readMainnetHeaderLines()[0]!), mainnetRules);
    const bad = hexToBytes(readMainnetHeaderLines()[0]!.replace(/^f9..../, ""));
    expect(() => BlockHeader.decode(bad, mainnetRules)).toThrow(HeaderDecodeError);
    expect(h.number).toBeGreaterThan(0);
  });

  it("rejects RLP garbage with BAD_RLP", () => {
    try {
      BlockHeader.decode(Uint8Array.of(0xf9, 0xff), mainnetRules);
      expect.unreachable();
    } catch (e) {
      expect((e as HeaderDecodeError).code).toBe(HeaderDecodeErrorCode.BAD_RLP);
    }
  });
});

describe("BlockHeader.fromValues on the testnet RPC blocks", () => {
  interface RpcBlock {
    number: string;
    hash: string;
    parentHash: string;
    sha3Uncles: string;
    logsBloom: string;
    transactionsRoot: string;
    stateRoot: string;
    receiptsRoot: string;
    miner: string;
    difficulty: string;
    extraData: string;
    gasLimit: string;
    gasUsed: string;
    timestamp: string;
    uncles: string[];
    minimumGasPrice: string;
    paidFees: string;
    bitcoinMergedMiningHeader: string;
    bitcoinMergedMiningMerkleProof: string;
    bitcoinMergedMiningCoinbaseTransaction: string;
  }
  const {blocks} = readJsonVector<{blocks: {rpcJson: RpcBlock; headerRlpFull: string}[]}>(
    "testnet-blocks-from-rpc-json.json",
  );
  for (const {rpcJson: j, headerRlpFull} of blocks) {
    it(`block ${Number(j.number)}: rskj's encodings of the JSON fields give the header bytes and hash`, () => {
      const h = BlockHeader.fromValues(
        {
          parentHash: hexToBytes(j.parentHash),
          unclesHash: hexToBytes(j.sha3Uncles),
          coinbase: hexToBytes(j.miner),
          stateRoot: hexToBytes(j.stateRoot),
          txTrieRoot: hexToBytes(j.transactionsRoot),
          receiptTrieRoot: hexToBytes(j.receiptsRoot),
          logsBloom: hexToBytes(j.logsBloom),
          difficulty: BigInt(j.difficulty),
          number: Number(j.number),
          gasLimit: BigInt(j.gasLimit),
          gasUsed: BigInt(j.gasUsed),
          timestamp: Number(j.timestamp),
          extraData: hexToBytes(j.extraData),
          paidFees: BigInt(j.paidFees),
          minimumGasPrice: BigInt(j.minimumGasPrice),
          uncleCount: j.uncles.length,
          mergedMining: {
            bitcoinHeader: hexToBytes(j.bitcoinMergedMiningHeader),
            merkleProof: hexToBytes(j.bitcoinMergedMiningMerkleProof),
            coinbase: hexToBytes(j.bitcoinMergedMiningCoinbaseTransaction),
          },
        },
        fromGenesisRules,
      );
      expect(bytesToHex(h.encode())).toBe(headerRlpFull);
      expect(`0x${bytesToHex(h.hash())}`).toBe(j.hash);
    });
  }
});
