/**
 * The BlockHeader contract (docs/protocol/native-contracts.md §3) over a hand-built chain: each method's answer and
 * encoding, the depth rules (depth 0 is the executing block's parent; shorts only; negative fails; 4,000 and
 * beyond, and past the chain's start, answer empty bytes), uncle indexes, merged-mining tags, the RSKIP-536
 * methods' gate, the price, and fork mode's refusal below the fork block. The ABI is rskj's method table
 * (test-utils' nativeAbis.ts: the npm package `@rsksmart/rsk-precompiled-abis` ships none for BlockHeader).
 */
import {getChainspec} from "@xchain/chainspec";
import {BlockHeader} from "@xchain/primitives";
import {BLOCK_HEADER_ABI, headerValues, plainHeader} from "@xchain/test-utils";
import {bytesToPrefixedHex, concatBytes, hexToBytes, utf8ToBytes} from "@xchain/utils";
import {Interface} from "ethers";
import {describe, expect, it} from "vitest";
import {NativeContractFailure, NativeContractUnavailableError} from "../../src/errors.ts";
import {blockHeader} from "../../src/native/blockHeader/blockHeader.ts";
import type {NativeCallContext} from "../../src/native/dispatch/types.ts";
import type {ChainHeaders} from "../../src/types.ts";
import {nativeContext} from "../support/nativeContext.ts";

const abi = new Interface(BLOCK_HEADER_ABI);

const regtest = getChainspec("regtest");
const BITCOIN_HEADER = new Uint8Array(80).fill(0xbb);
const TAGS = utf8ToBytes("XCHAIN:tags");
// The compressed coinbase: 8-byte length, midstate, then a tail with the tag twice (the last one counts).
const COINBASE = concatBytes(
  new Uint8Array(40),
  utf8ToBytes("RSKBLOCK:"),
  new Uint8Array(32).fill(1),
  utf8ToBytes("RSKBLOCK:"),
  new Uint8Array(32).fill(2),
  TAGS,
);

/** Blocks 0…9: block n has difficulty n + 1, minimumGasPrice 128 × n, gasUsed 1000 × n; 9 has two uncles. */
function buildChain(): {headers: BlockHeader[]; uncles: BlockHeader[]; chain: ChainHeaders} {
  const headers: BlockHeader[] = [];
  const uncles = [plainHeader(8, new Uint8Array(32), regtest, 7), plainHeader(8, new Uint8Array(32), regtest, 8)];
  for (let n = 0; n < 10; n++) {
    const base = plainHeader(n, headers[n - 1]?.hash() ?? new Uint8Array(32), regtest, n, n === 9 ? uncles : []);
    const header = BlockHeader.fromValues(
      {...headerValues(base), difficulty: BigInt(n + 1), minimumGasPrice: 128n * BigInt(n), gasUsed: 1000n * BigInt(n)},
      regtest,
    );
    // Block 5 is merge-mined without a tag; the genesis has no merged-mining fields at all.
    const coinbase = n === 5 ? new Uint8Array(64) : COINBASE;
    headers.push(
      n === 0
        ? header
        : header.withMergedMining({bitcoinHeader: BITCOIN_HEADER, merkleProof: new Uint8Array(0), coinbase}, regtest),
    );
  }
  const chain: ChainHeaders = {
    headerAt: async (n) => headers[n],
    uncles: async (hash) => (bytesToPrefixedHex(hash) === bytesToPrefixedHex(headers[9]!.hash()) ? uncles : []),
    totalDifficulty: async (hash) => {
      const index = headers.findIndex((h) => bytesToPrefixedHex(h.hash()) === bytesToPrefixedHex(hash));
      return index === -1 ? undefined : BigInt(((index + 1) * (index + 2)) / 2);
    },
  };
  return {headers, uncles, chain};
}

const {headers, uncles, chain} = buildChain();

/** The context of a call in block `number` (10: depth 0 is block 9). */
function at(number = 10, overrides: Partial<NativeCallContext> = {}): NativeCallContext {
  const base = nativeContext({address: blockHeader.address});
  return {
    ...base,
    block: {...base.block, number},
    chain: {...base.chain, headers: chain},
    ...overrides,
  };
}

const data = (method: string, ...args: bigint[]) => hexToBytes(abi.encodeFunctionData(method, args));

/** `method(args)`'s output bytes (raw) and the `bytes` they decode to. */
async function ask(method: string, args: bigint[], context = at()): Promise<{raw: Uint8Array; value: string}> {
  const {output} = await blockHeader.run(data(method, ...args), context);
  return {raw: output, value: abi.decodeFunctionResult(method, output)[0] as string};
}

const hex = (bytes: Uint8Array) => bytesToPrefixedHex(bytes);
const EMPTY_ANSWER = `0x${"20".padStart(64, "0")}${"0".repeat(128)}`;

describe("BlockHeader answers the fields of the block at a depth", () => {
  it("depth 0 is the executing block's parent, depth d the block d below it", async () => {
    expect((await ask("getBlockHash", [0n])).value).toBe(hex(headers[9]!.hash()));
    expect((await ask("getBlockHash", [2n])).value).toBe(hex(headers[7]!.hash()));
    expect((await ask("getCoinbaseAddress", [3n])).value).toBe(hex(headers[6]!.coinbase));
  });

  it("numbers as Java's BigInteger.toByteArray (0 → 00, 128 → 0080), gasLimit as the header's bytes", async () => {
    expect((await ask("getMinGasPrice", [8n])).value).toBe("0x0080"); // block 1
    expect((await ask("getMinGasPrice", [0n], at(1))).value).toBe("0x00"); // genesis
    expect((await ask("getGasUsed", [0n], at(1))).value).toBe("0x00");
    expect((await ask("getGasUsed", [0n])).value).toBe("0x2328");
    expect((await ask("getDifficulty", [0n])).value).toBe("0x0a");
    expect((await ask("getGasLimit", [0n])).value).toBe("0x67c280");
  });

  it("merged-mining fields: the Bitcoin header, the tags after the last RSKBLOCK: and its hash", async () => {
    expect((await ask("getBitcoinHeader", [0n])).value).toBe(hex(BITCOIN_HEADER));
    expect((await ask("getMergedMiningTags", [0n])).value).toBe(hex(TAGS));
    // No tag in the coinbase: empty bytes, rskj's 96-byte encoding of them.
    expect(hex((await ask("getMergedMiningTags", [4n])).raw)).toBe(EMPTY_ANSWER);
    // A header without merged-mining fields (the genesis): the Bitcoin header is rskj's null, no bytes at all;
    // the tags fail (rskj's list of null throws).
    expect((await blockHeader.run(data("getBitcoinHeader", 0n), at(1))).output).toEqual(new Uint8Array(0));
    await expect(blockHeader.run(data("getMergedMiningTags", 0n), at(1))).rejects.toBeInstanceOf(NativeContractFailure);
  });

  it("uncles: a coinbase by index; empty past the uncles or outside a short; a negative index fails", async () => {
    expect((await ask("getUncleCoinbaseAddress", [0n, 1n])).value).toBe(hex(uncles[1]!.coinbase));
    expect(hex((await ask("getUncleCoinbaseAddress", [0n, 2n])).raw)).toBe(EMPTY_ANSWER);
    expect(hex((await ask("getUncleCoinbaseAddress", [0n, 40_000n])).raw)).toBe(EMPTY_ANSWER);
    await expect(blockHeader.run(data("getUncleCoinbaseAddress", 0n, -1n), at())).rejects.toBeInstanceOf(
      NativeContractFailure,
    );
    expect((await ask("getDifficultyWithUncles", [0n])).value).toBe("0x0c"); // 10 + 1 + 1
    expect((await ask("getDifficultyWithUncles", [1n])).value).toBe("0x09");
  });

  it("cumulative work: the chain's total difficulty up to the block", async () => {
    expect((await ask("getCumulativeWork", [0n])).value).toBe("0x37"); // 1 + … + 10
    expect((await ask("getCumulativeWork", [9n], at(11))).value).toBe("0x03");
  });

  it("the selector alone reads depth 0 (rskj decodes integers of no bytes as 0)", async () => {
    const {output} = await blockHeader.run(hexToBytes("0x2cce81aa"), at());
    expect(abi.decodeFunctionResult("getBlockHash", output)[0]).toBe(hex(headers[9]!.hash()));
  });
});

describe("BlockHeader's depth rules", () => {
  it("answers empty bytes at 4,000 and beyond, outside a short, and past the chain's start", async () => {
    for (const depth of [4_000n, 32_767n, 32_768n, -32_769n, 2n ** 255n - 1n]) {
      expect(hex((await ask("getBlockHash", [depth])).raw)).toBe(EMPTY_ANSWER);
    }
    // From block 10 (parent 9) depth 8 is block 1, depth 9 would be the genesis: empty.
    expect((await ask("getBlockHash", [8n])).value).toBe(hex(headers[1]!.hash()));
    expect(hex((await ask("getBlockHash", [9n])).raw)).toBe(EMPTY_ANSWER);
    // The genesis only at depth 0 from block 1.
    expect((await ask("getBlockHash", [0n], at(1))).value).toBe(hex(headers[0]!.hash()));
  });

  it("fails a negative depth within a short", async () => {
    for (const depth of [-1n, -32_768n]) {
      await expect(blockHeader.run(data("getBlockHash", depth), at())).rejects.toBeInstanceOf(NativeContractFailure);
    }
  });

  it("on a fork, a block at or below the fork block stops the message with NativeContractUnavailableError", async () => {
    const forked = at(10, {chain: {...at().chain, forkAncestry: {number: 5, hashAt: async () => undefined}}});
    expect((await ask("getBlockHash", [3n], forked)).value).toBe(hex(headers[6]!.hash()));
    const stopped = blockHeader.run(data("getBlockHash", 4n), forked);
    await expect(stopped).rejects.toBeInstanceOf(NativeContractUnavailableError);
    await expect(stopped).rejects.toThrow("block 5 is at or below the fork block 5, whose headers are the upstream's");
  });
});

describe("BlockHeader's price and gates", () => {
  it("costs 4,000 + 2 per input byte: 4,072 for one argument, 4,136 for two; 0 for no method", () => {
    expect(blockHeader.gas(data("getBlockHash", 0n), at())).toBe(4_072n);
    expect(blockHeader.gas(data("getUncleCoinbaseAddress", 0n, 0n), at())).toBe(4_136n);
    expect(blockHeader.gas(hexToBytes("0xdeadbeef"), at())).toBe(0n);
  });

  it("getCumulativeWork and getDifficultyWithUncles exist from RSKIP-536 only", async () => {
    const mainnet = at(10, {chainspec: getChainspec("mainnet")});
    for (const method of ["getCumulativeWork", "getDifficultyWithUncles"]) {
      expect(blockHeader.gas(data(method, 0n), mainnet)).toBe(0n);
      await expect(blockHeader.run(data(method, 0n), mainnet)).rejects.toBeInstanceOf(NativeContractFailure);
    }
    expect((await ask("getBlockHash", [0n], mainnet)).value).toBe(hex(headers[9]!.hash()));
    expect(blockHeader.isActive(getChainspec("mainnet"), 1_590_999)).toBe(false);
    expect(blockHeader.isActive(getChainspec("mainnet"), 1_591_000)).toBe(true);
  });
});
