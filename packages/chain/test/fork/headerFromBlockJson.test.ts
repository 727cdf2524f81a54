import {buildGenesisHeader, getChainspec, getGenesisParams} from "@xchain/chainspec";
import {BlockHeader, decodeRlpList, HeaderField} from "@xchain/primitives";
import {readJsonVector, readMainnetHeaderLines, rskjBlockJson} from "@xchain/test-utils";
import {bytesToHex, hexToBytes, toQuantity} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {BlockJsonErrorCode, headerFromBlockJson} from "../../src/fork/headerFromBlockJson.ts";

const mainnet = getChainspec("mainnet");
const testnet = getChainspec("testnet");

interface TestnetVector {
  blocks: {number: number; rpcJson: Record<string, unknown>; headerRlpFull: string}[];
}
interface SamplesVector {
  blocks: {number: number; headerRlp: string}[];
}

const testnetBlocks = readJsonVector<TestnetVector>("testnet-blocks-from-rpc-json.json").blocks;
const mainnetHeaders = readMainnetHeaderLines().map((line) => BlockHeader.decode(hexToBytes(line), mainnet));

function errorOf(run: () => unknown): {code: string; message: string} {
  try {
    run();
  } catch (e) {
    return e as {code: string; message: string};
  }
  throw new Error("expected an error");
}

describe("headerFromBlockJson", () => {
  it.each(testnetBlocks)("rebuilds real testnet block $number from rskj's JSON, byte for byte", (block) => {
    const header = headerFromBlockJson(block.rpcJson, block.number, testnet);
    expect(bytesToHex(header.encode())).toBe(block.headerRlpFull.replace(/^0x/, ""));
    expect(header.uncleCount).toBe((block.rpcJson.uncles as unknown[]).length);
  });

  it("rebuilds all 1,060 real mainnet headers (ummRoot from the height) from their JSON", () => {
    for (const original of mainnetHeaders) {
      const rebuilt = headerFromBlockJson(rskjBlockJson(original), original.number, mainnet);
      expect(bytesToHex(rebuilt.encode())).toBe(bytesToHex(original.encode()));
    }
  });

  it("rebuilds the pre-papyrus mainnet samples (19 fields, no ummRoot; one before RSKIP-92's proof change)", () => {
    for (const sample of readJsonVector<SamplesVector>("mainnet-headers-samples.json").blocks) {
      const original = BlockHeader.decode(hexToBytes(sample.headerRlp), mainnet);
      const rebuilt = headerFromBlockJson(rskjBlockJson(original), sample.number, mainnet);
      expect(bytesToHex(rebuilt.encode())).toBe(bytesToHex(original.encode()));
    }
  });

  it("takes a gasLimit written in its shortest form (no sign byte) when that is what the hash covers", () => {
    // A real header with its gasLimit replaced by one whose top bit is set, written without the sign byte
    // rskj's builder would add (the hash is the modified header's own: the rebuild does not check proof of work).
    const items = decodeRlpList(mainnetHeaders[0]!.encode(), "header");
    items[HeaderField.gasLimit] = hexToBytes("989680");
    const short = BlockHeader.fromRlpItems(items, mainnet);
    const rebuilt = headerFromBlockJson(rskjBlockJson(short), short.number, mainnet);
    expect(bytesToHex(rebuilt.encode())).toBe(bytesToHex(short.encode()));
  });

  it.each(["regtest", "testnet", "mainnet"] as const)(
    "rebuilds %s's genesis (minimumGasPrice 0 written as one zero byte)",
    (name) => {
      // Forking a dev node at its genesis: the genesis writes its minimumGasPrice as rskj's loader does.
      const chainspec = getChainspec(name);
      const genesis = buildGenesisHeader(getGenesisParams(name).header, new Uint8Array(32).fill(7), chainspec);
      const rebuilt = headerFromBlockJson(rskjBlockJson(genesis), 0, chainspec);
      expect(bytesToHex(rebuilt.encode())).toBe(bytesToHex(genesis.encode()));
    },
  );

  it("rejects a block whose JSON had one field changed, naming the block, its hash and the field set", () => {
    const json = {...rskjBlockJson(mainnetHeaders[5]!), gasUsed: "0x1"};
    const error = errorOf(() => headerFromBlockJson(json, mainnetHeaders[5]!.number, mainnet));
    expect(error.code).toBe(BlockJsonErrorCode.HASH_MISMATCH);
    expect(error.message).toMatch(
      /^block 4479846: the header rebuilt from the JSON fields \(16 base fields with uncleCount = uncles\.length, empty ummRoot, bitcoinMergedMiningHeader; 18 fields hashed\) hashes to 0x[0-9a-f]{64}, not to the block's hash 0x[0-9a-f]{64}/,
    );
  });

  it("rejects a changed uncle count (uncles is part of the header through uncleCount)", () => {
    const header = mainnetHeaders[5]!;
    const oneMore = Array.from({length: header.uncleCount + 1}, () => `0x${"11".repeat(32)}`);
    const json = rskjBlockJson(header, oneMore);
    expect(errorOf(() => headerFromBlockJson(json, header.number, mainnet)).code).toBe(
      BlockJsonErrorCode.HASH_MISMATCH,
    );
  });

  it("names a missing or malformed field, a null answer, another height and a pending block", () => {
    const json = rskjBlockJson(mainnetHeaders[0]!);
    const n = mainnetHeaders[0]!.number;
    const {paidFees: _, ...noPaidFees} = json;
    expect(errorOf(() => headerFromBlockJson(noPaidFees, n, mainnet)).message).toBe(
      "block 4479841: field paidFees missing",
    );
    expect(errorOf(() => headerFromBlockJson({...json, miner: "0x12"}, n, mainnet)).message).toBe(
      "block 4479841: field miner hex string has length 2, want 40",
    );
    expect(errorOf(() => headerFromBlockJson({...json, difficulty: 7}, n, mainnet))).toMatchObject({
      code: BlockJsonErrorCode.BAD_FIELD,
      message: "block 4479841: field difficulty expected a hex string, got number",
    });
    expect(errorOf(() => headerFromBlockJson({...json, uncles: "none"}, n, mainnet)).message).toBe(
      "block 4479841: field uncles not an array",
    );
    expect(errorOf(() => headerFromBlockJson(null, n, mainnet)).message).toBe(
      "block 4479841: the node answered null (it has no block at that height)",
    );
    expect(errorOf(() => headerFromBlockJson([json], n, mainnet)).code).toBe(BlockJsonErrorCode.NOT_AN_OBJECT);
    expect(errorOf(() => headerFromBlockJson({...json, number: toQuantity(n + 1)}, n, mainnet)).message).toBe(
      "block 4479841: the node answered block 4479842",
    );
    expect(errorOf(() => headerFromBlockJson({...json, bitcoinMergedMiningHeader: "0x"}, n, mainnet)).code).toBe(
      BlockJsonErrorCode.UNSEALED,
    );
  });
});
